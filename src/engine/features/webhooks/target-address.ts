/**
 * Where a webhook may be sent. Endpoints are URLs a user of a shared server chooses, so nothing
 * on the server's own machine or networks may be reached through them: only https (http to
 * loopback when the operator allows it for local development), and every address the host name
 * resolves to — checked when the endpoint is saved and again before each attempt, the connection
 * then made to the address checked — must be public. A refusal names the rule it broke.
 */
import dns from 'node:dns/promises';
import net from 'node:net';
import { badRequest } from '../../../core/errors.js';
import { isPrivateAddress, mappedIPv4 } from '../../private-address.js';

export type Lookup = (host: string) => Promise<string[]>;

export const systemLookup: Lookup = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

export interface TargetRules {
  /** http:// to loopback addresses is allowed (serve --allow-loopback-webhooks; tests). */
  allowLoopback: boolean;
  lookup: Lookup;
}

/** The named range an address is in, or null for a public address. */
export function addressRule(address: string): string | null {
  const v4 = (net.isIPv4(address) ? address : mappedIPv4(address))?.split('.').map(Number);
  if (v4) {
    const [a, b] = v4 as [number, number];
    if (a === 127) return 'loopback';
    if (a === 169 && b === 254) return v4[2] === 169 && v4[3] === 254 ? 'cloud metadata' : 'link-local';
    if (a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168)) return 'private network';
    if (a === 100 && b >= 64 && b < 128) return 'carrier-grade NAT';
    if (a === 0) return 'unspecified';
  } else {
    const bare = address.toLowerCase().replace(/%.*$/, '');
    if (bare === '::1') return 'loopback';
    if (bare === '::') return 'unspecified';
    if (/^fe[89ab]/.test(bare)) return 'link-local';
    if (/^f[cd]/.test(bare)) return bare.startsWith('fd00:ec2::254') ? 'cloud metadata' : 'private network';
  }
  return isPrivateAddress(address) ? 'reserved range' : null;
}

const isLoopback = (address: string) => addressRule(address) === 'loopback';

/** The parsed URL, or a 400 naming what makes it unusable by its form alone. */
export function checkedUrl(text: string, rules: Pick<TargetRules, 'allowLoopback'>): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(`url: "${text}" is not a URL.`, 'Give the full address of your receiver, such as https://example.com/hooks/tubekit.');
  }
  if (url.username || url.password) throw badRequest('url: must not carry a user name or password.', 'Authenticate deliveries by their signature instead.');
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && rules.allowLoopback) return url;
  throw badRequest(
    `url: webhooks are sent over https only, not ${url.protocol.replace(':', '')}.`,
    rules.allowLoopback ? undefined : 'For a receiver on this machine during development, the operator starts `tubekit serve --allow-loopback-webhooks`.',
  );
}

/** The address to connect to: every address of the host is checked; throws a 400 naming the rule broken. */
export async function checkedTarget(url: URL, rules: TargetRules): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host) ? [host] : await rules.lookup(host).catch(() => [] as string[]);
  if (addresses.length === 0) throw badRequest(`url: ${host} has no address.`, 'Check the host name of your receiver.');
  for (const address of addresses) {
    const rule = addressRule(address);
    if (rule === null) continue;
    if (rule === 'loopback' && rules.allowLoopback) continue;
    const named = host === address ? address : `${host} resolves to ${address}`;
    throw badRequest(`url: ${named}, a ${rule} address; webhooks are sent to public addresses only.`, rule === 'loopback' ? 'For a receiver on this machine during development, the operator starts `tubekit serve --allow-loopback-webhooks`.' : undefined);
  }
  // http is for loopback development only: a public address must be reached over https.
  if (url.protocol === 'http:' && !addresses.every(isLoopback)) throw badRequest('url: http is allowed to loopback addresses only; use https.');
  return addresses[0]!;
}
