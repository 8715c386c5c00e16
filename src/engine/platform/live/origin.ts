/**
 * `TUBEKIT_PLATFORM_ORIGIN`: every request of the live platform goes to this origin instead of the
 * site's hosts, with the same path and query (tests, mirrors, recording proxies).
 */
import { badRequest } from '../../../core/errors.js';

/** Validates an origin override: an http(s) URL with no path, query or fragment. */
export function parseOriginOverride(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`TUBEKIT_PLATFORM_ORIGIN: "${value}" is not a URL.`, 'Give an origin such as http://127.0.0.1:8080.');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw badRequest(`TUBEKIT_PLATFORM_ORIGIN: "${value}" is not an http(s) origin.`, 'Give only scheme, host and port, such as http://127.0.0.1:8080.');
  }
  return url;
}

/** The URL a request really goes to: the override's origin, the request's path and query. */
export function rewriteOrigin(url: URL, origin: URL | undefined): URL {
  if (!origin) return url;
  const rewritten = new URL(url.pathname + url.search, origin);
  return rewritten;
}

/** Where pages outside the site go under an origin override: the host kept as the first path segment. */
export const OUTSIDE_PREFIX = '/external/';

/**
 * The URL a page outside the site (a store a channel links to) really goes to: unchanged, or under
 * an override `<origin>/external/<host><path>?<query>`, so a fixture server tells hosts apart.
 */
export function rewriteOutsideOrigin(url: URL, origin: URL | undefined): URL {
  if (!origin) return url;
  return new URL(`${OUTSIDE_PREFIX}${url.host}${url.pathname}${url.search}`, origin);
}
