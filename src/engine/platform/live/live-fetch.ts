/**
 * The one fetch the live platform uses (youtubei.js is given it): origin override, proxy, cookies,
 * per-host pacing, a time limit per attempt, abort, back-off on refusals, and errors in the
 * service's terms. Every response is streamed up to its kind's bound (answer-bounds.ts) and kept
 * for the read's trail.
 */
import type { Dispatcher } from 'undici';
import { ServiceError } from '../../../core/errors.js';
import { ANSWER_BOUNDS, answerTooDeep, answerTooLarge, nestsDeeper, readBoundedText } from './answer-bounds.js';
import { type Cookie, cookieHeader, readCookiesFile } from './cookies.js';
import { platformRefused, platformUnreachable } from './errors.js';
import type { LiveNetworkSettings } from './network-options.js';
import { parseOriginOverride, rewriteOrigin } from './origin.js';
import { HostPacer, realSleep, type Sleep } from './pacer.js';
import { recordExchange } from './raw-responses.js';
import { backoffMs, refusalOf, retryAfterSeconds } from './refusal.js';
import { stableFields } from './request-fields.js';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface LiveFetchDeps {
  now?: () => number;
  sleep?: Sleep;
  random?: () => number;
  /** Told when a host cools down after a refusal (the CLI prints it with --verbose). */
  onCooldown?: (host: string, waitMs: number, reason: string) => void;
  /** Aborts every request in flight and every wait. */
  signal?: AbortSignal;
}

export interface Transport {
  fetch: (
    url: string,
    init: Record<string, unknown>,
  ) => Promise<{ status: number; url: string; headers: Headers; body: ReadableStream<Uint8Array> | null; text(): Promise<string> }>;
  dispatcher?: Dispatcher;
}

/** undici's fetch, through the proxy when one is set. */
export async function openTransport(proxy: string | undefined): Promise<Transport> {
  const undici = await import('undici');
  const dispatcher = proxy ? new undici.ProxyAgent(proxy) : undefined;
  return { fetch: undici.fetch as unknown as Transport['fetch'], dispatcher };
}

/** Why a request never got an answer, in a few words. */
export function reasonOf(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timed out after ${Math.round(timeoutMs / 1000)}s`;
  let cause = error as { code?: string; message?: string; cause?: unknown } | undefined;
  for (let depth = 0; cause && depth < 4; depth++) {
    if (cause.code) {
      const known: Record<string, string> = {
        ECONNREFUSED: 'connection refused',
        ENOTFOUND: 'host not found (DNS)',
        EAI_AGAIN: 'DNS lookup failed',
        ECONNRESET: 'connection reset',
        ETIMEDOUT: 'connection timed out',
        UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
        EHOSTUNREACH: 'host unreachable',
        ENETUNREACH: 'network unreachable',
        UND_ERR_SOCKET: 'connection closed',
      };
      return known[cause.code] ?? cause.code;
    }
    cause = cause.cause as typeof cause;
  }
  return (error as Error)?.message || 'unknown error';
}

function headerEntries(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  new Headers(headers).forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

async function bodyText(input: string | URL | Request, init: RequestInit | undefined): Promise<string | undefined> {
  const body = init?.body ?? (input instanceof Request && input.body ? await input.clone().text() : undefined);
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return Buffer.from(body as Uint8Array).toString('utf8');
  return new Response(body as BodyInit).text();
}

export async function createLiveFetch(settings: LiveNetworkSettings, deps: LiveFetchDeps = {}): Promise<FetchLike> {
  const origin = settings.origin ? parseOriginOverride(settings.origin) : undefined;
  const cookies: Cookie[] = settings.cookiesFile ? readCookiesFile(settings.cookiesFile) : [];
  // undici is imported at the first request: a command that reads no page never loads it.
  let transportOpening: Promise<Transport> | undefined;
  const openedTransport = () => (transportOpening ??= openTransport(settings.proxy));
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? realSleep;
  const random = deps.random ?? Math.random;
  const pacer = new HostPacer(settings.requestsPerSecond, now, sleep);

  return async function liveFetch(input, init) {
    const requested = new URL(input instanceof Request ? input.url : String(input));
    const target = rewriteOrigin(requested, origin);
    const host = requested.host;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const headers = headerEntries(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const cookie = cookieHeader(cookies, requested, Math.floor(now() / 1000));
    if (cookie) headers.cookie = cookie;
    const body = method === 'GET' || method === 'HEAD' ? undefined : await bodyText(input, init);

    const transport = await openedTransport();
    for (let attempt = 0; ; attempt++) {
      await pacer.take(host, deps.signal);
      const timeout = AbortSignal.timeout(settings.timeoutMs);
      const signal = deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
      let response: Awaited<ReturnType<Transport['fetch']>>;
      let text: string | null;
      const kind = answerKind(requested);
      try {
        response = await fetchOnPlatform(transport, target, origin, { method, headers, body, signal, dispatcher: transport.dispatcher });
        text = await readBoundedText(response.body, ANSWER_BOUNDS[kind].bytes);
      } catch (error) {
        if (deps.signal?.aborted) throw deps.signal.reason;
        if (error instanceof ServiceError) throw error;
        throw platformUnreachable(host, reasonOf(error, timeout.aborted, settings.timeoutMs), error);
      }
      if (text === null) throw answerTooLarge(`${method} ${requested.pathname}`, kind);
      if (/^\s*[[{]/.test(text) && nestsDeeper(text)) throw answerTooDeep(`${method} ${requested.pathname}`);
      recordExchange({ method, url: requested.href, request: stableFields(body), status: response.status, body: text });
      const refusal = refusalOf(response.status, response.url, response.status >= 400 || isPlayer(requested) ? text : '');
      if (!refusal) {
        const empty = response.status === 204 || response.status === 304;
        return new Response(empty ? null : text, { status: response.status, headers: response.headers });
      }
      const hint = retryAfterSeconds(response.headers.get('retry-after'), now());
      // A hint longer than the longest back-off is not worth blocking on: say so now.
      if (attempt >= settings.retries || (hint ?? 0) * 1000 > settings.backoffCapMs) throw platformRefused(host, refusal, attempt + 1, hint);
      const wait = backoffMs(attempt, settings.backoffBaseMs, settings.backoffCapMs, hint, random);
      deps.onCooldown?.(host, wait, refusal);
      pacer.holdUntil(host, now() + wait);
    }
  };
}

/** Redirects followed per request; the site needs one or two (consent, a moved page). */
const MAX_REDIRECTS = 5;

/** Hosts of the platform a redirect may lead to (the site, its sign-in and bot-check pages, its media). */
const PLATFORM_HOST = /(?:^|\.)(?:youtube\.com|youtu\.be|youtube-nocookie\.com|google\.com|googlevideo\.com|ytimg\.com)$/;

/**
 * Where a redirect may go: a platform host over https on the default port (sent to the override
 * when there is one), or the override's own origin; null for anywhere else, which is never followed.
 */
export function platformRedirect(location: URL, origin: URL | undefined): URL | null {
  if (origin && location.origin === origin.origin) return location;
  const host = location.hostname.replace(/\.+$/, '').toLowerCase();
  if (location.protocol !== 'https:' || location.port !== '' || location.username || location.password || !PLATFORM_HOST.test(host)) return null;
  return rewriteOrigin(location, origin);
}

type Answer = Awaited<ReturnType<Transport['fetch']>>;

/** A request whose redirects are followed only while they stay on the platform (or the override). */
async function fetchOnPlatform(transport: Transport, target: URL, origin: URL | undefined, init: Record<string, unknown> & { method: string; body?: string }): Promise<Answer> {
  let url = target;
  let request = init;
  for (let hop = 0; ; hop++) {
    const response = await transport.fetch(url.href, { ...request, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return response;
    await response.body?.cancel().catch(() => undefined);
    let next: URL | null = null;
    try {
      next = platformRedirect(new URL(location, url), origin);
    } catch {
      next = null;
    }
    if (!next || hop >= MAX_REDIRECTS) throw redirectRefused(url, location, hop >= MAX_REDIRECTS);
    // 303, and 301/302 after a POST, continue as a GET without the body (as browsers do).
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST')) request = { ...request, method: 'GET', body: undefined };
    url = next;
  }
}

function redirectRefused(from: URL, location: string, tooMany: boolean): ServiceError {
  let where = location.slice(0, 100);
  try {
    where = new URL(location, from).host;
  } catch {
    // Not a URL: shown as it came.
  }
  return new ServiceError({
    status: 502,
    code: 'upstream_error',
    message: tooMany
      ? `the video platform redirected ${from.pathname} more than ${MAX_REDIRECTS} times; not followed further.`
      : `the video platform redirected ${from.pathname} to ${where}, which is not one of its hosts; not followed.`,
    hint: 'Try again later; through a proxy or mirror, check that it answers for the site itself.',
  });
}

/** Caption tracks have a bound of their own; everything else is a page. */
const answerKind = (url: URL) => (url.pathname === '/api/timedtext' ? 'captions' : 'page');

/** Player answers carry the bot check in their playability, with HTTP 200. */
const isPlayer = (url: URL) => url.pathname.endsWith('/player');
