import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, interceptors, request, type Dispatcher, type FormData } from 'undici';
import { ServiceError, parseRetryAfterText, type ErrorCode } from '../core/errors.js';
import { isIdempotent, type RouteDef } from '../core/route.js';
import { routes, type RouteInput, type RouteName, type RouteOutput } from '../core/routes.js';
import type { CallOptions, RawRequest, Service, ServiceTarget } from '../core/service.js';
import { VERSION } from '../core/version.js';
import { withBaselineParser } from './baseline-parser.js';
import { fetchFileResumable } from './file-fetch.js';
import { buildRequestParts, type HttpRequestParts } from './request-parts.js';
import { redactUrl, type TraceSink } from './trace.js';

export interface RemoteServiceOptions {
  baseUrl: string;
  apiKey?: string;
  /**
   * The most one call may take, retries included, in milliseconds. Unset, each route gets the
   * default that fits it (ROUTE_TIMEOUTS_MS); set (a script's --request-timeout), it applies to
   * every route. Long-polls always add their wait on top.
   */
  timeoutMs?: number;
  /** Retries for idempotent calls on 429, 5xx and connection failures (within the time bound). */
  maxRetries?: number;
  /** Longest wait honoured from Retry-After before giving up. */
  maxRetryWaitMs?: number;
  /** The wire name of the provider written `alt` (the hosted service calls it `minimax`). */
  altProviderName?: string;
  trace?: TraceSink;
}

const USER_AGENT = `tubekit/${VERSION} (+cli)`;

/** How long an ordinary call may take in all, retries included. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** Routes that legitimately take longer than an ordinary call. */
export const ROUTE_TIMEOUTS_MS: Partial<Record<RouteName, number>> = {
  // Live checks run up to 60 s (the spec), plus a margin for the request itself.
  'cms.check': 75_000,
  'monetization.ads': 75_000,
  'monetization.external': 75_000,
  // The hosted service's downloads can take more than two minutes.
  download: 5 * 60_000,
  // Uploads of samples up to 15 MB on a slow line.
  'voices.stealth.clone': 2 * 60_000,
  'voices.alt.clone': 2 * 60_000,
};

const defaultCodes: Record<number, ErrorCode> = {
  400: 'invalid_request', 401: 'unauthorized', 403: 'plan_required', 404: 'not_found',
  409: 'conflict', 429: 'rate_limited', 502: 'upstream_error',
};

/** One HTTP exchange as `call` and `request` make it. */
interface Exchange {
  method: string;
  url: URL;
  parts: Pick<HttpRequestParts, 'json' | 'form'>;
  budgetMs: number;
  retryable: boolean;
  signal?: AbortSignal;
  /** The caller's own headers (`tubekit api -H`), sent after ours so they can replace them. */
  headers?: Record<string, string>;
}

/** The Service over HTTP: every request is built from the route table. */
export class RemoteService implements Service {
  readonly target: ServiceTarget;
  private readonly base: URL;
  private readonly dispatcher: Dispatcher;

  constructor(private readonly options: RemoteServiceOptions) {
    this.base = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
    this.target = { mode: 'remote', location: this.base.origin + this.base.pathname.replace(/\/$/, '') };
    this.dispatcher = new Agent({ keepAliveTimeout: 10_000, connect: { timeout: 10_000 } });
  }

  async call<N extends RouteName>(name: N, input: RouteInput<N>, options: CallOptions = {}): Promise<RouteOutput<N>> {
    const route = routes[name];
    const fields = this.toWire(input as Record<string, unknown>);
    const parts = buildRequestParts(route, fields);
    const url = new URL(this.wirePath(parts.path).replace(/^\//, ''), this.base);
    parts.query.forEach((value, key) => url.searchParams.set(key, value));
    const body = await this.exchange({
      method: route.method,
      url,
      parts,
      budgetMs: this.budgetMs(name, route.longPoll ? fields.wait_seconds : undefined),
      retryable: isIdempotent(route, fields),
      signal: options.signal,
      headers: options.headers,
    });
    return this.fromWire(body) as RouteOutput<N>;
  }

  /**
   * Any path of the service, as `tubekit api` sends it when the route table has no such endpoint:
   * the same key, time bound, retries (GET and DELETE only) and error handling as `call`.
   */
  async callPath(raw: RawRequest, options: CallOptions = {}): Promise<unknown> {
    const method = raw.method.toUpperCase();
    const parts = buildRequestParts({ path: raw.path, encoding: raw.encoding } as RouteDef, raw.fields);
    const url = new URL(parts.path.replace(/^\//, ''), this.base);
    parts.query.forEach((value, key) => url.searchParams.set(key, value));
    return this.exchange({
      method,
      url,
      parts,
      budgetMs: this.options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      retryable: method === 'GET' || method === 'DELETE',
      signal: options.signal,
      headers: options.headers,
    });
  }

  /** The time one call of `name` may take in all; a long-poll's wait (capped at 30 s) comes on top. */
  budgetMs(name: RouteName, waitSeconds?: unknown): number {
    // The server validates wait_seconds; a bad value must still give a usable bound here.
    const wait = Number(waitSeconds ?? 0);
    const waitMs = Number.isFinite(wait) && wait > 0 ? Math.min(wait, 30) * 1000 : 0;
    return (this.options.timeoutMs ?? ROUTE_TIMEOUTS_MS[name] ?? DEFAULT_CALL_TIMEOUT_MS) + waitMs;
  }

  /**
   * Sends a request, retrying where safe, all within `budgetMs`: each attempt gets what is left of
   * it, and a retry that would not fit is not made. Answers the parsed JSON body.
   */
  private async exchange(exchange: Exchange): Promise<unknown> {
    const { method, url, parts, budgetMs, signal } = exchange;
    const deadline = Date.now() + budgetMs;
    const maxRetries = exchange.retryable ? (this.options.maxRetries ?? 3) : 0;
    const retryFits = (waitMs: number) => Date.now() + waitMs < deadline - 50;

    for (let attempt = 0; ; attempt += 1) {
      const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' };
      if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
      for (const [name, value] of Object.entries(exchange.headers ?? {})) headers[name.toLowerCase()] = value;
      let body: string | FormData | undefined;
      if (parts.json) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(parts.json);
      } else if (parts.form) {
        body = parts.form; // undici sets the multipart Content-Type with its boundary
      }
      const started = Date.now();
      const left = Math.max(1, deadline - started);
      const outOfTime = AbortSignal.timeout(left);
      const attemptSignal = signal ? AbortSignal.any([signal, outOfTime]) : outOfTime;
      this.trace(`→ ${method} ${redactUrl(url.toString())}${traceHeaders(headers)}`);
      let status: number;
      let text: string;
      let response: Dispatcher.ResponseData;
      try {
        response = await withBaselineParser(() =>
          request(url, {
            method: method as Dispatcher.HttpMethod,
            headers,
            body: body as never,
            dispatcher: this.dispatcher,
            headersTimeout: left,
            bodyTimeout: left,
            signal: attemptSignal,
          }),
        );
        status = response.statusCode;
        text = await response.body.text();
      } catch (error) {
        if (signal?.aborted) throw error;
        if (outOfTime.aborted || isUndiciTimeout(error)) throw this.timedOut(budgetMs, error);
        const failure = this.unreachable(error);
        this.trace(`← ${failure.message}`);
        const wait = backoffMs(attempt);
        if (attempt < maxRetries && retryFits(wait)) {
          await sleep(wait, undefined, { signal });
          continue;
        }
        throw failure;
      }
      this.trace(`← ${status} (${Date.now() - started} ms)`);
      const contentType = headerText(response.headers['content-type']);
      const parsed = parseJson(text);
      if (status >= 200 && status < 300) {
        if (text.trim() === '') return {};
        if (parsed === undefined) throw this.notTheService(status, contentType, text);
        return parsed;
      }
      const failure = parsed === undefined || typeof parsed !== 'object' || parsed === null
        ? this.notTheService(status, contentType, text)
        : errorFromResponse(status, text, response.headers['retry-after']);
      const retryAfterMs = status === 429 ? (failure.retryAfterSeconds ?? 1) * 1000 : status >= 500 ? backoffMs(attempt) : undefined;
      if (retryAfterMs !== undefined && attempt < maxRetries && retryAfterMs <= (this.options.maxRetryWaitMs ?? 60_000) && retryFits(retryAfterMs)) {
        this.trace(`  retrying in ${Math.round(retryAfterMs)} ms`);
        await sleep(retryAfterMs, undefined, { signal });
        continue;
      }
      throw failure;
    }
  }

  /** A call that used up its time, said in words (exit 9), with how to allow more. */
  private timedOut(budgetMs: number, cause: unknown): ServiceError {
    const seconds = Number((budgetMs / 1000).toFixed(budgetMs < 10_000 ? 1 : 0));
    return new ServiceError({
      status: 504,
      code: 'timeout',
      message: `The service at ${this.target.location} did not answer within ${seconds} s.`,
      hint: 'Allow more time with --request-timeout <seconds> (or `tubekit config set timeout <seconds>`), or check that the base URL points at the service.',
      cause,
    });
  }

  /** An answer that is not the service's JSON: an HTML error page, a proxy, another server. */
  private notTheService(status: number, contentType: string | undefined, text: string): ServiceError {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim().replace(/\s+/g, ' ');
    const shown = title ? ` ("${title.length > 80 ? `${title.slice(0, 79)}…` : title}")` : '';
    return new ServiceError({
      status: status >= 500 || status === 429 ? status : 502,
      code: 'unexpected_response',
      message: `The base URL ${this.target.location} did not answer like the service: HTTP ${status} with ${contentType ? contentType.split(';')[0] : 'no content type'}${shown}, not a JSON body.`,
      hint: 'Check the base URL (--base-url, TUBEKIT_BASE_URL or `tubekit config get base_url`): it is the address the service\'s /api/… paths hang off.',
    });
  }

  /** Files the service handed out: never with the API key; resumed with Range when a transfer breaks (file-fetch.ts). */
  async fetchFile(url: string, options: CallOptions = {}): Promise<NodeJS.ReadableStream> {
    return withBaselineParser(() => fetchFileResumable(url, {
      // undici 7 follows redirects only through its interceptor (a CDN may redirect to storage).
      dispatcher: this.dispatcher.compose(interceptors.redirect({ maxRedirections: 5 })),
      userAgent: USER_AGENT,
      signal: options.signal,
      trace: (line) => this.trace(line),
      failure: (status, text, cause) => (status === undefined ? this.unreachable(cause ?? new Error(text), url) : errorFromResponse(status, text, undefined)),
    }));
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  private toWire(input: Record<string, unknown>): Record<string, unknown> {
    const altName = this.options.altProviderName;
    if (altName && input.provider === 'alt') return { ...input, provider: altName };
    return input;
  }

  /** The alt provider's paths under its wire name: the hosted service answers `/api/voices/minimax…`. */
  private wirePath(path: string): string {
    const altName = this.options.altProviderName;
    if (!altName) return path;
    return path.replace(/^\/api\/voices\/alt(?=\/|$)/, `/api/voices/${encodeURIComponent(altName)}`);
  }

  private fromWire(body: unknown): unknown {
    const altName = this.options.altProviderName;
    if (altName && body && typeof body === 'object' && (body as { provider?: unknown }).provider === altName) {
      return { ...(body as object), provider: 'alt' };
    }
    return body;
  }

  private unreachable(error: unknown, url = this.target.location): ServiceError {
    const reason = (error as { code?: string; message?: string }).code ?? (error as Error).message;
    return new ServiceError({
      status: 503,
      code: 'unavailable',
      message: `Could not reach ${url} (${reason}).`,
      hint: 'Check the base URL (--base-url or TUBEKIT_BASE_URL) and your network.',
      cause: error,
    });
  }

  private trace(line: string): void {
    this.options.trace?.(line);
  }
}

const headerText = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** Headers that carry credentials: a trace shows that they were sent, never any of what. */
const SECRET_HEADER = /authorization|cookie|key|token|secret|password|credential|signature/i;
/** Headers every request has; a trace names only the others. */
const ROUTINE_HEADERS = new Set(['user-agent', 'accept', 'content-type']);

/** The headers of a request for a `--verbose` trace: credentials cut to what tells them apart. */
function traceHeaders(headers: Record<string, string>): string {
  const shown = Object.entries(headers)
    .filter(([name]) => !ROUTINE_HEADERS.has(name))
    .map(([name, value]) => {
      const shownName = name.replace(/(^|-)[a-z]/g, (letter) => letter.toUpperCase());
      if (!SECRET_HEADER.test(name)) return `${shownName}: ${value}`;
      const scheme = /^(bearer|basic|token)\s/i.exec(value)?.[1];
      return `${shownName}: ${scheme ? `${scheme} ` : ''}[redacted]`;
    });
  return shown.length ? ` (${shown.join('; ')})` : '';
}

/** The parsed body, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** undici's own per-request timeouts (headers, body), which the budget also bounds. */
const isUndiciTimeout = (error: unknown) =>
  ['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'].includes((error as { code?: string })?.code ?? '') ||
  (error as Error)?.name === 'TimeoutError';

const backoffMs = (attempt: number) => Math.min(8000, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5);

/** Reads an error body (`error`, then `message`) into a ServiceError. */
export function errorFromResponse(status: number, text: string, retryAfterHeader: string | string[] | undefined): ServiceError {
  let body: { error?: unknown; message?: unknown; code?: unknown; hint?: unknown } = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: text.trim().slice(0, 300) };
  }
  const message =
    (typeof body.error === 'string' && body.error) ||
    (typeof body.message === 'string' && body.message) ||
    `The service answered HTTP ${status}.`;
  const header = Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader;
  const retryAfterSeconds = header && /^\d+$/.test(header) ? Number(header) : parseRetryAfterText(message);
  return new ServiceError({
    status,
    code: typeof body.code === 'string' ? body.code : (defaultCodes[status] ?? (status >= 500 ? 'unavailable' : 'invalid_request')),
    message,
    hint: typeof body.hint === 'string' ? body.hint : undefined,
    retryAfterSeconds,
  });
}
