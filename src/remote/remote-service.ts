import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, interceptors, request, type Dispatcher, type FormData } from 'undici';
import { ServiceError, parseRetryAfterText, type ErrorCode } from '../core/errors.js';
import { isIdempotent } from '../core/route.js';
import { routes, type RouteInput, type RouteName, type RouteOutput } from '../core/routes.js';
import type { CallOptions, Service, ServiceTarget } from '../core/service.js';
import { VERSION } from '../core/version.js';
import { fetchFileResumable } from './file-fetch.js';
import { buildRequestParts } from './request-parts.js';
import { redactKey, redactUrl, type TraceSink } from './trace.js';

export interface RemoteServiceOptions {
  baseUrl: string;
  apiKey?: string;
  /** Milliseconds to wait for an answer (long-polls add their wait on top). */
  timeoutMs?: number;
  /** Retries for idempotent calls on 429, 5xx and connection failures. */
  maxRetries?: number;
  /** Longest wait honoured from Retry-After before giving up. */
  maxRetryWaitMs?: number;
  /** The wire name of the provider written `alt` (the hosted service calls it `minimax`). */
  altProviderName?: string;
  trace?: TraceSink;
}

const USER_AGENT = `tubekit/${VERSION} (+cli)`;
/** Downloads can take minutes on the hosted service; their client timeout allows it. */
const SLOW_ROUTES = new Set<RouteName>(['download', 'voices.alt.clone', 'voices.stealth.clone']);

const defaultCodes: Record<number, ErrorCode> = {
  400: 'invalid_request', 401: 'unauthorized', 403: 'plan_required', 404: 'not_found',
  409: 'conflict', 429: 'rate_limited', 502: 'upstream_error',
};

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
    // The server validates wait_seconds; a bad value must still give a usable timeout here.
    const waitSeconds = route.longPoll ? Number(fields.wait_seconds ?? 0) : 0;
    const waitMs = Number.isFinite(waitSeconds) && waitSeconds > 0 ? Math.min(waitSeconds, 30) * 1000 : 0;
    const timeoutMs = (SLOW_ROUTES.has(name) ? 10 * 60_000 : (this.options.timeoutMs ?? 60_000)) + waitMs;
    const retryable = isIdempotent(route, fields);
    const maxRetries = retryable ? (this.options.maxRetries ?? 3) : 0;

    for (let attempt = 0; ; attempt += 1) {
      const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' };
      if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
      let body: string | FormData | undefined;
      if (parts.json) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(parts.json);
      } else if (parts.form) {
        body = parts.form; // undici sets the multipart Content-Type with its boundary
      }
      const started = Date.now();
      this.trace(`→ ${route.method} ${redactUrl(url.toString())}${this.options.apiKey ? ` (Authorization: Bearer ${redactKey(this.options.apiKey)})` : ''}`);
      let response: Dispatcher.ResponseData;
      try {
        response = await request(url, {
          method: route.method,
          headers,
          body: body as never,
          dispatcher: this.dispatcher,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          signal: options.signal,
        });
      } catch (error) {
        if (options.signal?.aborted) throw error;
        const failure = this.unreachable(error);
        this.trace(`← ${failure.message}`);
        if (attempt < maxRetries) {
          await sleep(backoffMs(attempt), undefined, { signal: options.signal });
          continue;
        }
        throw failure;
      }
      const text = await response.body.text();
      this.trace(`← ${response.statusCode} (${Date.now() - started} ms)`);
      if (response.statusCode >= 200 && response.statusCode < 300) {
        return this.fromWire(text ? JSON.parse(text) : {}) as RouteOutput<N>;
      }
      const failure = errorFromResponse(response.statusCode, text, response.headers['retry-after']);
      const waitForRetry =
        failure.status === 429 ? (failure.retryAfterSeconds ?? 1) * 1000 : failure.status >= 500 ? backoffMs(attempt) : undefined;
      if (waitForRetry !== undefined && attempt < maxRetries && waitForRetry <= (this.options.maxRetryWaitMs ?? 60_000)) {
        this.trace(`  retrying in ${Math.round(waitForRetry)} ms`);
        await sleep(waitForRetry, undefined, { signal: options.signal });
        continue;
      }
      throw failure;
    }
  }

  /** Files the service handed out: never with the API key; resumed with Range when a transfer breaks (file-fetch.ts). */
  async fetchFile(url: string, options: CallOptions = {}): Promise<NodeJS.ReadableStream> {
    return fetchFileResumable(url, {
      // undici 7 follows redirects only through its interceptor (a CDN may redirect to storage).
      dispatcher: this.dispatcher.compose(interceptors.redirect({ maxRedirections: 5 })),
      userAgent: USER_AGENT,
      signal: options.signal,
      trace: (line) => this.trace(line),
      failure: (status, text, cause) => (status === undefined ? this.unreachable(cause ?? new Error(text), url) : errorFromResponse(status, text, undefined)),
    });
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
