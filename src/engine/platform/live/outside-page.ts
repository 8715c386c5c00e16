/**
 * Reads pages outside the site that a channel links to (its stores), for the external-monetization
 * classifier: one GET, no cookies, through the proxy and the origin override like every read of the
 * live platform, paced per host, within a size and a time limit, following at most a few redirects
 * (each judged again). Links come from channel pages anyone can write, so only public hosts on the
 * default ports are read: never an address of this machine or its network.
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import type { OutsidePage } from '../public-pages.js';
import { openTransport, reasonOf, type Transport } from './live-fetch.js';
import type { LiveNetworkSettings } from './network-options.js';
import { parseOriginOverride, rewriteOutsideOrigin } from './origin.js';
import { HostPacer, realSleep, type Sleep } from './pacer.js';

export interface OutsideLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export const OUTSIDE_LIMITS: OutsideLimits = { maxBytes: 2_000_000, timeoutMs: 10_000, maxRedirects: 3 };

const HEADERS = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8',
  'accept-language': 'en-US,en;q=0.8',
};

export interface OutsideReaderDeps {
  now?: () => number;
  sleep?: Sleep;
  /** Resolves a host name to its addresses (tests); the system resolver by default. */
  lookup?: (host: string) => Promise<string[]>;
}

export type OutsideReader = (url: string) => Promise<OutsidePage>;

export async function createOutsideReader(settings: LiveNetworkSettings, limits: OutsideLimits = OUTSIDE_LIMITS, deps: OutsideReaderDeps = {}): Promise<OutsideReader> {
  const origin = settings.origin ? parseOriginOverride(settings.origin) : undefined;
  // undici is imported at the first page read, as the site's fetch does.
  let transportOpening: Promise<Transport> | undefined;
  const pacer = new HostPacer(settings.requestsPerSecond, deps.now ?? Date.now, deps.sleep ?? realSleep);
  const lookup = deps.lookup ?? (async (host: string) => (await dns.lookup(host, { all: true })).map((entry) => entry.address));
  // Under an override or a proxy, this machine never connects to the named host itself.
  const resolvesHere = !origin && !settings.proxy;

  return async function readOutsidePage(address) {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return { ok: false, url: address, reason: 'not a URL' };
    }
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    try {
      for (let hop = 0; ; hop++) {
        const refused = unreadableHost(url) ?? (resolvesHere ? await privateAddressOf(url, lookup) : undefined);
        if (refused) return { ok: false, url: url.href, reason: refused };
        await pacer.take(url.host, deadline);
        const transport = await (transportOpening ??= openTransport(settings.proxy));
        const response = await transport.fetch(rewriteOutsideOrigin(url, origin).href, {
          method: 'GET',
          headers: HEADERS,
          redirect: 'manual',
          signal: deadline,
          dispatcher: transport.dispatcher,
        });
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          if (hop >= limits.maxRedirects) return { ok: false, url: url.href, reason: `more than ${limits.maxRedirects} redirects` };
          url = new URL(location, url);
          continue;
        }
        const { text, truncated } = await readLimited(response, limits.maxBytes);
        return { ok: true, url: url.href, status: response.status, content_type: response.headers.get('content-type') ?? '', text, truncated };
      }
    } catch (error) {
      return { ok: false, url: url.href, reason: deadline.aborted ? `timed out after ${limits.timeoutMs / 1000}s` : reasonOf(error, false, limits.timeoutMs) };
    }
  };
}

/** The body as text, at most `maxBytes` of it (the rest is not read). */
async function readLimited(response: Awaited<ReturnType<Transport['fetch']>>, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
    chunks.push(value.subarray(0, Math.max(0, maxBytes - size)));
    size += value.byteLength;
    if (size >= maxBytes) {
      await reader.cancel();
      return { text: Buffer.concat(chunks).toString('utf8'), truncated: size > maxBytes };
    }
  }
}

/** Why a URL is never read, by its form alone; undefined when it may be. */
export function unreadableHost(url: URL): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `not an http(s) page (${url.protocol})`;
  if (url.username || url.password) return 'a URL with credentials';
  if (url.port && url.port !== (url.protocol === 'https:' ? '443' : '80')) return `a port other than the default (${url.port})`;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (net.isIP(host)) return isPrivateAddress(host) ? `an address of a private network (${host})` : undefined;
  if (!host.includes('.') || /(?:^|\.)(?:localhost|local|internal|lan|home|arpa)$/.test(host)) return `not a public host name (${host})`;
  return undefined;
}

async function privateAddressOf(url: URL, lookup: (host: string) => Promise<string[]>): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) return undefined;
  const addresses = await lookup(host);
  const inside = addresses.find(isPrivateAddress);
  return inside ? `${host} resolves to an address of a private network (${inside})` : undefined;
}

/** Loopback, private, link-local, carrier-grade NAT, unspecified, multicast and reserved ranges. */
export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return a === 0 || a === 10 || a === 127 || a >= 224 || (a === 100 && b >= 64 && b < 128) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168);
  }
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (mappedHex) {
    const [high, low] = [parseInt(mappedHex[1]!, 16), parseInt(mappedHex[2]!, 16)];
    return isPrivateAddress(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || lower.startsWith('ff');
}
