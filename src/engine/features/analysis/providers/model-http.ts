/**
 * Requests to a vision model's API, and what its failures mean. One place for what every provider
 * shares: a time limit per request, bounded retries (a 429 waits as long as the API asks —
 * Retry-After, retry-after-ms, Gemini's RetryInfo or "try again in N s" — when that is at most a
 * minute; a 5xx is tried again after a short pause), and error messages that name the provider
 * and the cause. The key is never part of a message: whatever a server echoes is redacted.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { providerLabel, type VisionProviderConfig } from './provider-config.js';

/** A failure of the model or its API; the message is complete, safe to show and store. */
export class VisionModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VisionModelError';
  }
}

/** Tries after the first, for a 429 or a 5xx. */
export const MAX_RETRIES = 2;
/** The longest wait a 429 may ask for before tubekit gives up instead of waiting. */
export const MAX_RETRY_WAIT_SECONDS = 60;
/** The first pause before trying a 5xx again (or a 429 that gave no hint); the second is twice as long. */
export const DEFAULT_RETRY_PAUSE_MS = 1_000;

export interface ModelRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Made again for each try (a stream cannot be sent twice). */
  body?: () => BodyInit;
  /** What the request is for, in messages ("the chat completion", "the upload of the video"). */
  what: string;
  /** Statuses the caller handles itself (answered, not thrown), e.g. 404 for a file that expired. */
  accept?: number[];
}

export interface ModelResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Everything a provider call needs: the configuration, and the job's signal. */
export interface ModelCall {
  config: VisionProviderConfig;
  signal: AbortSignal;
  /** The first pause before a retry (DEFAULT_RETRY_PAUSE_MS unless the engine's job timing says otherwise). */
  retryPauseMs?: number;
}

export function modelFailure(config: VisionProviderConfig, cause: string): VisionModelError {
  return new VisionModelError(redact(`Video analysis failed: the vision model (${providerLabel(config)}) ${cause}`, config.apiKey));
}

/** A connection dropped before any answer (most often a kept-alive one the server closed as it was reused): tried again once. */
const DROPPED_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

export async function callModel(call: ModelCall, request: ModelRequest): Promise<ModelResponse> {
  const { config, signal } = call;
  let dropped = 0;
  for (let attempt = 0; ; attempt += 1) {
    const response = await send(call, request, dropped === 0);
    if (response === 'dropped') {
      dropped += 1;
      continue;
    }
    const { status } = response;
    if ((status >= 200 && status < 300) || request.accept?.includes(status)) return response;
    const retryable = status === 429 || status >= 500;
    if (!retryable) throw modelFailure(config, refusalOf(config, response, request.what));
    const hinted = retryHintSeconds(response);
    if (status === 429 && hinted !== undefined && hinted > MAX_RETRY_WAIT_SECONDS) {
      throw modelFailure(config, `is rate limiting requests (HTTP 429) and asks to wait ${Math.ceil(hinted)} s, longer than tubekit waits (${MAX_RETRY_WAIT_SECONDS} s): ${providerMessage(response)}. Submit the analysis again after that.`);
    }
    if (attempt >= MAX_RETRIES) {
      throw modelFailure(
        config,
        status === 429
          ? `is still rate limiting requests (HTTP 429) after ${MAX_RETRIES + 1} tries: ${providerMessage(response)}. Submit the analysis again in a while, or raise the API's rate limit.`
          : `failed ${request.what} with a server error (HTTP ${status}) ${MAX_RETRIES + 1} times: ${providerMessage(response)}. The API may be down or overloaded; submit the analysis again later.`,
      );
    }
    await sleep(hinted !== undefined ? hinted * 1000 : (call.retryPauseMs ?? DEFAULT_RETRY_PAUSE_MS) * 2 ** attempt, undefined, { signal });
  }
}

/** One try, within the configured time limit; 'dropped' for a dropped connection when `mayRetry`. */
async function send(call: ModelCall, request: ModelRequest, mayRetry: boolean): Promise<ModelResponse | 'dropped'> {
  const { config, signal } = call;
  const timeout = AbortSignal.timeout(config.timeoutMs);
  try {
    const response = await fetch(request.url, {
      method: request.method ?? 'POST',
      headers: request.headers,
      body: request.body?.(),
      signal: AbortSignal.any([signal, timeout]),
      // A streamed body (an upload) must say it is sent whole before the answer is read.
      ...(request.body ? { duplex: 'half' } : {}),
    } as RequestInit);
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    // The job stopping is the worker's business, not a model failure.
    if (signal.aborted) throw signal.reason ?? error;
    if (timeout.aborted) {
      throw modelFailure(
        config,
        `did not answer ${request.what} within ${config.timeoutMs / 1000} s. A slow (local) model may need longer: raise TUBEKIT_ANALYSIS_TIMEOUT or \`tubekit config set analysis.timeout <seconds>\` where the engine runs.`,
      );
    }
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (mayRetry && code && DROPPED_CONNECTION.has(code)) return 'dropped';
    throw modelFailure(config, `could not be reached for ${request.what} (${code ?? (error as Error).message}). Check analysis.base_url (TUBEKIT_ANALYSIS_BASE_URL) and that the server runs.`);
  }
}

/** What a 4xx means, and what to do about it. */
function refusalOf(config: VisionProviderConfig, response: ModelResponse, what: string): string {
  const message = providerMessage(response);
  switch (response.status) {
    case 401:
      return `refused the API key (HTTP 401): ${message}. Check the key where the engine runs (TUBEKIT_ANALYSIS_API_KEY, or \`tubekit config set analysis.api_key\`).`;
    case 403:
      return `refused access (HTTP 403): ${message}. The key may lack access to model ${config.model}, or the API is not enabled for it.`;
    case 404:
      return `does not know what was asked for ${what} (HTTP 404): ${message}. Check the model name (analysis.model) and the base URL (analysis.base_url).`;
    case 413:
      return `refused ${what} as too large (HTTP 413): ${message}. Use media_resolution low, or a model that accepts more.`;
    default:
      return `refused ${what} (HTTP ${response.status}): ${message}.`;
  }
}

/** The API's own words: `error.message` of a JSON body (OpenAI, Gemini, Ollama), else the start of the text. */
export function providerMessage(response: ModelResponse): string {
  const text = response.text.trim();
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (typeof message === 'string' && message.trim()) return clip(message.trim());
  } catch {
    // not JSON
  }
  return text ? clip(text) : 'no message';
}

const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text).replace(/\s+/g, ' ').replace(/[.\s]+$/, '');

/** Seconds the server asked to wait, from the headers or the body; undefined when it did not say. */
export function retryHintSeconds(response: ModelResponse): number | undefined {
  const ms = Number(response.headers.get('retry-after-ms'));
  if (response.headers.has('retry-after-ms') && ms >= 0) return ms / 1000;
  const header = response.headers.get('retry-after');
  if (header !== null) {
    if (/^\s*\d+(\.\d+)?\s*$/.test(header)) return Number(header);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(0, (at - Date.now()) / 1000);
  }
  try {
    const body = JSON.parse(response.text) as { error?: { details?: Array<{ '@type'?: string; retryDelay?: string }> } };
    const delay = body.error?.details?.find((detail) => detail['@type']?.endsWith('RetryInfo'))?.retryDelay;
    if (delay && /^\d+(\.\d+)?s$/.test(delay)) return Number(delay.slice(0, -1));
  } catch {
    // not JSON
  }
  const said = /try again in (\d+(?:\.\d+)?)\s*(ms|s)\b/i.exec(response.text);
  if (said) return said[2]!.toLowerCase() === 'ms' ? Number(said[1]) / 1000 : Number(said[1]);
  return undefined;
}

/** A run of this many characters of the key is treated as the key (a server's partial echo). */
const KEY_RUN = 16;

/** The text with the key, and any long run of it, removed. */
export function redact(text: string, key: string | undefined): string {
  if (!key) return text;
  let safe = text.split(key).join('[redacted]');
  for (let at = 0; at + KEY_RUN <= key.length; at += 1) safe = safe.split(key.slice(at, at + KEY_RUN)).join('[redacted]');
  return safe;
}

/** Reads a JSON body, or fails naming the provider and what it sent instead. */
export function jsonBody<T>(call: ModelCall, response: ModelResponse, expected: string): T {
  try {
    return JSON.parse(response.text) as T;
  } catch {
    throw modelFailure(call.config, `answered with something that is not ${expected}: ${clip(response.text) || 'an empty body'}.`);
  }
}
