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
import type { Dispatcher } from 'undici';
import { openTransport, reasonOf, type Transport } from './live-fetch.js';
import type { LiveNetworkSettings } from './network-options.js';
import { parseOriginOverride, rewriteOutsideOrigin } from './origin.js';
import { HostPacer, realSleep, type Sleep } from './pacer.js';
import { isPrivateAddress } from '../../private-address.js';

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

/** A public page's bytes, or why it was not read. */
export type PublicBytes =
  | { ok: true; url: string; status: number; content_type: string; data: Buffer; truncated: boolean }
  | { ok: false; url: string; reason: string };

export type PublicFetcher = (url: string, options?: { maxBytes?: number; signal?: AbortSignal; httpsOnly?: boolean }) => Promise<PublicBytes>;

export async function createOutsideReader(settings: LiveNetworkSettings, limits: OutsideLimits = OUTSIDE_LIMITS, deps: OutsideReaderDeps = {}): Promise<OutsideReader> {
  const fetchPublic = await createPublicFetcher(settings, limits, deps);
  return async function readOutsidePage(address) {
    const page = await fetchPublic(address);
    if (!page.ok) return page;
    const { data, ...rest } = page;
    return { ...rest, text: data.toString('utf8') };
  };
}

/**
 * GETs a page on a public host, bounded in size, time and redirects (each hop judged again). The
 * host is resolved once and the connection made to the address that was checked, so a name that
 * answers a public address to the check and a private one to the connection reaches nothing.
 */
export async function createPublicFetcher(settings: LiveNetworkSettings, limits: OutsideLimits = OUTSIDE_LIMITS, deps: OutsideReaderDeps = {}): Promise<PublicFetcher> {
  const origin = settings.origin ? parseOriginOverride(settings.origin) : undefined;
  // undici is imported at the first page read, as the site's fetch does.
  let transportOpening: Promise<Transport> | undefined;
  const pacer = new HostPacer(settings.requestsPerSecond, deps.now ?? Date.now, deps.sleep ?? realSleep);
  const lookup = deps.lookup ?? (async (host: string) => (await dns.lookup(host, { all: true })).map((entry) => entry.address));
  // Under an override or a proxy, this machine never connects to the named host itself.
  const resolvesHere = !origin && !settings.proxy;

  return async function fetchPublic(address, options = {}) {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return { ok: false, url: address, reason: 'not a URL' };
    }
    const maxBytes = options.maxBytes ?? limits.maxBytes;
    const deadline = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(limits.timeoutMs)]) : AbortSignal.timeout(limits.timeoutMs);
    try {
      for (let hop = 0; ; hop++) {
        if (options.httpsOnly && url.protocol !== 'https:') return { ok: false, url: url.href, reason: `not an https URL (${url.protocol})` };
        const refused = unreadableHost(url);
        if (refused) return { ok: false, url: url.href, reason: refused };
        const transport = await (transportOpening ??= openTransport(settings.proxy));
        let dispatcher = transport.dispatcher;
        if (resolvesHere) {
          const checked = await checkedAddress(url, lookup);
          if (typeof checked === 'object') return { ok: false, url: url.href, reason: checked.refused };
          if (checked) dispatcher = pinnedAgent(await import('undici'), checked);
        }
        await pacer.take(url.host, deadline);
        let response: Awaited<ReturnType<Transport['fetch']>>;
        try {
          response = await transport.fetch(rewriteOutsideOrigin(url, origin).href, { method: 'GET', headers: HEADERS, redirect: 'manual', signal: deadline, dispatcher });
        } finally {
          if (dispatcher !== transport.dispatcher) void dispatcher?.close();
        }
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          if (hop >= limits.maxRedirects) return { ok: false, url: url.href, reason: `more than ${limits.maxRedirects} redirects` };
          url = new URL(location, url);
          continue;
        }
        const { data, truncated } = await readLimited(response, maxBytes);
        return { ok: true, url: url.href, status: response.status, content_type: response.headers.get('content-type') ?? '', data, truncated };
      }
    } catch (error) {
      return { ok: false, url: url.href, reason: deadline.aborted ? `timed out after ${limits.timeoutMs / 1000}s` : reasonOf(error, false, limits.timeoutMs) };
    }
  };
}

/** An agent whose every connection goes to `address` (the one checked), whatever the name resolves to now. */
export function pinnedAgent(undici: typeof import('undici'), address: string): Dispatcher {
  const family = net.isIPv6(address) ? 6 : 4;
  return new undici.Agent({
    connect: {
      lookup: (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
        options?.all ? callback(null, [{ address, family }]) : callback(null, address, family),
    } as never,
  });
}

/** The body, at most `maxBytes` of it (the rest is not read). */
async function readLimited(response: Awaited<ReturnType<Transport['fetch']>>, maxBytes: number): Promise<{ data: Buffer; truncated: boolean }> {
  if (!response.body) return { data: Buffer.alloc(0), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { data: Buffer.concat(chunks), truncated: false };
    chunks.push(value.subarray(0, Math.max(0, maxBytes - size)));
    size += value.byteLength;
    if (size >= maxBytes) {
      await reader.cancel();
      return { data: Buffer.concat(chunks), truncated: size > maxBytes };
    }
  }
}

/** Why a URL is never read, by its form alone; undefined when it may be. */
export function unreadableHost(url: URL): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `not an http(s) page (${url.protocol})`;
  if (url.username || url.password) return 'a URL with credentials';
  if (url.port && url.port !== (url.protocol === 'https:' ? '443' : '80')) return `a port other than the default (${url.port})`;
  const host = bareHost(url);
  if (net.isIP(host)) return isPrivateAddress(host) ? `an address of a private network (${host})` : undefined;
  if (!host.includes('.') || /(?:^|\.)(?:localhost|local|internal|lan|home|arpa)$/.test(host)) return `not a public host name (${host})`;
  return undefined;
}

/** The host without IPv6 brackets or a trailing dot (`localhost.` is localhost), lower case. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();

/** The address to connect to (undefined for a literal IP, already judged by its form), or why none may be. */
async function checkedAddress(url: URL, lookup: (host: string) => Promise<string[]>): Promise<string | undefined | { refused: string }> {
  const host = bareHost(url);
  if (net.isIP(host)) return undefined;
  const addresses = await lookup(host);
  const inside = addresses.find(isPrivateAddress);
  if (inside) return { refused: `${host} resolves to an address of a private network (${inside})` };
  if (addresses.length === 0) return { refused: `${host} has no address` };
  return addresses[0]!;
}
