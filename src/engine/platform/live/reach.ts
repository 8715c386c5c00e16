/**
 * Whether the site answers, with one light request through the live platform's own fetch (origin
 * override, proxy, cookies): `/generate_204`, the empty page browsers use to check connectivity.
 */
import { createLiveFetch } from './live-fetch.js';
import type { LiveNetworkSettings } from './network-options.js';

export interface PlatformReach {
  ok: boolean;
  /** Where the request went: the site's host, or the origin override. */
  target: string;
  /** `HTTP 204 in 120 ms`, or why it failed. */
  detail: string;
  /** The HTTP status the site answered with; absent when nothing answered. */
  status?: number;
}

export async function probePlatformReach(network: LiveNetworkSettings): Promise<PlatformReach> {
  const target = network.origin ?? 'https://www.youtube.com';
  const started = Date.now();
  try {
    const fetch = await createLiveFetch({ ...network, retries: 0, timeoutMs: Math.min(network.timeoutMs, 10_000) });
    const response = await fetch('https://www.youtube.com/generate_204');
    const ms = Date.now() - started;
    return { ok: response.status >= 200 && response.status < 300, target, detail: `HTTP ${response.status} in ${ms} ms`, status: response.status };
  } catch (error) {
    return { ok: false, target, detail: (error as Error).message };
  }
}
