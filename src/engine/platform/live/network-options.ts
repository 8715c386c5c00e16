/**
 * How the live platform reaches the site, from flags and the environment (flags win):
 *
 *   TUBEKIT_PLATFORM_ORIGIN  send every request to this origin instead (same path and query)
 *   TUBEKIT_PROXY            proxy URL (else HTTPS_PROXY / https_proxy)
 *   TUBEKIT_COOKIES          Netscape cookies file, for a site that asks to sign in
 *   TUBEKIT_PLATFORM_RATE    requests a second to each host (default 2)
 */
import { badRequest } from '../../../core/errors.js';

export interface LiveNetworkSettings {
  origin?: string;
  proxy?: string;
  cookiesFile?: string;
  /** Request starts a second to each host. */
  requestsPerSecond: number;
  /** One attempt's time limit. */
  timeoutMs: number;
  /** Attempts after a refusal before giving up. */
  retries: number;
  /** First back-off; doubles each attempt, jittered, at least the site's Retry-After. */
  backoffBaseMs: number;
  backoffCapMs: number;
}

export const DEFAULT_NETWORK: LiveNetworkSettings = {
  requestsPerSecond: 2,
  timeoutMs: 20_000,
  retries: 3,
  backoffBaseMs: 2_000,
  backoffCapMs: 60_000,
};

export function networkSettingsFromEnv(env: NodeJS.ProcessEnv, flags: { proxy?: string } = {}): LiveNetworkSettings {
  const settings: LiveNetworkSettings = { ...DEFAULT_NETWORK };
  if (env.TUBEKIT_PLATFORM_ORIGIN) settings.origin = env.TUBEKIT_PLATFORM_ORIGIN;
  const proxy = flags.proxy ?? (env.TUBEKIT_PROXY || env.HTTPS_PROXY || env.https_proxy || undefined);
  if (proxy) settings.proxy = proxy;
  if (env.TUBEKIT_COOKIES) settings.cookiesFile = env.TUBEKIT_COOKIES;
  if (env.TUBEKIT_PLATFORM_RATE) {
    const rate = Number(env.TUBEKIT_PLATFORM_RATE);
    if (!Number.isFinite(rate) || rate <= 0 || rate > 100) {
      throw badRequest(`TUBEKIT_PLATFORM_RATE: "${env.TUBEKIT_PLATFORM_RATE}" is not a rate.`, 'Give requests a second to each host, between 0.01 and 100 (default 2).');
    }
    settings.requestsPerSecond = rate;
  }
  return settings;
}
