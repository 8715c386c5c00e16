/**
 * A Netscape cookies file (what browsers' exporters and yt-dlp write): one cookie a line,
 * `domain  include-subdomains  path  secure  expiry  name  value`, tab-separated; `#HttpOnly_`
 * marks http-only cookies, other `#` lines are comments.
 */
import fs from 'node:fs';
import { badRequest } from '../../../core/errors.js';

export interface Cookie {
  domain: string;
  includeSubdomains: boolean;
  path: string;
  secure: boolean;
  /** Seconds since the epoch; 0 for a session cookie. */
  expires: number;
  name: string;
  value: string;
}

export function parseNetscapeCookies(text: string, source: string): Cookie[] {
  const cookies: Cookie[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    let line = raw.trim();
    if (line.startsWith('#HttpOnly_')) line = line.slice('#HttpOnly_'.length);
    else if (line === '' || line.startsWith('#')) return;
    const fields = line.split('\t');
    if (fields.length < 7) {
      throw badRequest(
        `${source}, line ${index + 1}: not a Netscape cookie line (7 tab-separated fields expected, found ${fields.length}).`,
        'Export the cookies again in Netscape (cookies.txt) format.',
      );
    }
    const [domain, sub, path, secure, expires, name, ...value] = fields;
    cookies.push({
      domain: domain!.toLowerCase(),
      includeSubdomains: sub!.toUpperCase() === 'TRUE',
      path: path || '/',
      secure: secure!.toUpperCase() === 'TRUE',
      expires: Number(expires) || 0,
      name: name!,
      value: value.join('\t'),
    });
  });
  return cookies;
}

export function readCookiesFile(file: string): Cookie[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw badRequest(`Cannot read the cookies file ${file} (${code}).`, 'Pass the path of a cookies.txt exported from a browser (TUBEKIT_COOKIES).');
  }
  return parseNetscapeCookies(text, file);
}

function domainMatches(cookie: Cookie, host: string): boolean {
  const domain = cookie.domain.replace(/^\./, '');
  if (host === domain) return true;
  return (cookie.includeSubdomains || cookie.domain.startsWith('.')) && host.endsWith(`.${domain}`);
}

/** The `Cookie` header for a request to `url` (its real host, before any origin override). */
export function cookieHeader(cookies: readonly Cookie[], url: URL, nowSeconds: number): string | null {
  const host = url.hostname.toLowerCase();
  const parts = cookies
    .filter((cookie) => domainMatches(cookie, host))
    .filter((cookie) => url.pathname.startsWith(cookie.path))
    .filter((cookie) => !cookie.secure || url.protocol === 'https:')
    .filter((cookie) => cookie.expires === 0 || cookie.expires > nowSeconds)
    .map((cookie) => `${cookie.name}=${cookie.value}`);
  return parts.length ? parts.join('; ') : null;
}
