/**
 * How the live platform reaches the site, from flags (the CLI's --proxy, the profile's cookies
 * file) and the environment (flags win):
 *
 *   TUBEKIT_PLATFORM_ORIGIN  send every request to this origin instead (same path and query)
 *   TUBEKIT_PROXY            proxy URL (else HTTPS_PROXY / https_proxy)
 *   TUBEKIT_COOKIES          Netscape cookies file, for a site that asks to sign in
 *   TUBEKIT_PLATFORM_RATE    requests a second to each host (default 2)
 *   TUBEKIT_PLATFORM_TIMEOUT seconds one request may take (default 20)
 *   TUBEKIT_MEDIA_MIN_RATE   bytes a second a media transfer must average over each window (default 8192; 0: none)
 *   TUBEKIT_MEDIA_RATE_WINDOW  that window's seconds (default 30)
 */
import { badRequest } from '../../../core/errors.js';
import { proxyForDisplay, proxyUrlProblem } from '../../../core/proxy-url.js';
import { DEFAULT_MINIMUM_RATE, type MinimumRate } from './media/transfer-rate.js';

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
  /** The slowest a media transfer (yt-dlp's download) may go before it is stopped. */
  mediaMinRate: MinimumRate;
}

export const DEFAULT_NETWORK: LiveNetworkSettings = {
  requestsPerSecond: 2,
  timeoutMs: 20_000,
  retries: 3,
  backoffBaseMs: 2_000,
  backoffCapMs: 60_000,
  mediaMinRate: DEFAULT_MINIMUM_RATE,
};

/** Settings the caller gives beside the environment, which they win over: the CLI's --proxy, the profile's cookies file. */
export interface NetworkFlags {
  proxy?: string;
  cookiesFile?: string;
}

/** The proxy to use and where it was given; a value that is not a proxy URL is a 400 naming its source. */
function chosenProxy(env: NodeJS.ProcessEnv, flags: NetworkFlags): string | undefined {
  const [proxy, source] = flags.proxy
    ? [flags.proxy, '--proxy']
    : env.TUBEKIT_PROXY
      ? [env.TUBEKIT_PROXY, 'TUBEKIT_PROXY']
      : env.HTTPS_PROXY
        ? [env.HTTPS_PROXY, 'HTTPS_PROXY']
        : [env.https_proxy, 'https_proxy'];
  if (!proxy) return undefined;
  const problem = proxyUrlProblem(proxy);
  if (problem) throw badRequest(`${source}: "${proxyForDisplay(proxy)}" ${problem}.`, 'Give the proxy as http://host:port (or https://, with user:password@ when it needs them).');
  return proxy;
}

export function networkSettingsFromEnv(env: NodeJS.ProcessEnv, flags: NetworkFlags = {}): LiveNetworkSettings {
  const settings: LiveNetworkSettings = { ...DEFAULT_NETWORK };
  if (env.TUBEKIT_PLATFORM_ORIGIN) settings.origin = env.TUBEKIT_PLATFORM_ORIGIN;
  const proxy = chosenProxy(env, flags);
  if (proxy) settings.proxy = proxy;
  const cookiesFile = flags.cookiesFile || env.TUBEKIT_COOKIES;
  if (cookiesFile) settings.cookiesFile = cookiesFile;
  if (env.TUBEKIT_PLATFORM_RATE) {
    const rate = Number(env.TUBEKIT_PLATFORM_RATE);
    if (!Number.isFinite(rate) || rate <= 0 || rate > 100) {
      throw badRequest(`TUBEKIT_PLATFORM_RATE: "${env.TUBEKIT_PLATFORM_RATE}" is not a rate.`, 'Give requests a second to each host, between 0.01 and 100 (default 2).');
    }
    settings.requestsPerSecond = rate;
  }
  if (env.TUBEKIT_PLATFORM_TIMEOUT) {
    const seconds = Number(env.TUBEKIT_PLATFORM_TIMEOUT);
    if (!Number.isFinite(seconds) || seconds < 0.1 || seconds > 600) {
      throw badRequest(`TUBEKIT_PLATFORM_TIMEOUT: "${env.TUBEKIT_PLATFORM_TIMEOUT}" is not a time limit.`, 'Give the seconds one request to the site may take, between 0.1 and 600 (default 20).');
    }
    settings.timeoutMs = Math.round(seconds * 1000);
  }
  if (env.TUBEKIT_MEDIA_MIN_RATE) {
    const rate = Number(env.TUBEKIT_MEDIA_MIN_RATE);
    if (!Number.isInteger(rate) || rate < 0 || rate > 100 * 1024 * 1024) {
      throw badRequest(`TUBEKIT_MEDIA_MIN_RATE: "${env.TUBEKIT_MEDIA_MIN_RATE}" is not a rate.`, 'Give the bytes a second a media transfer must average, a whole number (default 8192; 0 turns the rule off).');
    }
    settings.mediaMinRate = { ...settings.mediaMinRate, bytesPerSecond: rate };
  }
  if (env.TUBEKIT_MEDIA_RATE_WINDOW) {
    const seconds = Number(env.TUBEKIT_MEDIA_RATE_WINDOW);
    if (!Number.isFinite(seconds) || seconds < 0.5 || seconds > 3600) {
      throw badRequest(`TUBEKIT_MEDIA_RATE_WINDOW: "${env.TUBEKIT_MEDIA_RATE_WINDOW}" is not a window.`, 'Give the seconds over which a media transfer\'s rate is judged, between 0.5 and 3600 (default 30).');
    }
    settings.mediaMinRate = { ...settings.mediaMinRate, windowMs: Math.round(seconds * 1000) };
  }
  return settings;
}
