/**
 * Requests to an upstream speech provider, and what its failures mean: one place for a time limit
 * per request, bounded retries (a 429 waits what the provider asks when that is at most
 * MAX_RETRY_WAIT_SECONDS; a 5xx is tried again after a pause), and a 502 `upstream_error` that
 * names the provider and its reason. The key never appears in a message.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { upstreamError, type ServiceError } from '../../../core/errors.js';
import { providerMessage, redact, retryHintSeconds, type ModelResponse } from '../../features/analysis/providers/model-http.js';
import { providerLabel, SPEECH_SETTINGS, type UpstreamConfig } from './speech-settings.js';

export const MAX_RETRIES = 2;
export const MAX_RETRY_WAIT_SECONDS = 30;
export interface UpstreamCall {
  config: UpstreamConfig;
  signal?: AbortSignal;
  /** The first pause before a 5xx is tried again; the second is twice as long. */
  retryPauseMs?: number;
}

export interface UpstreamRequest {
  path: string;
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  /** Made again for each try. */
  body?: () => BodyInit;
  /** What the request is for, in messages ("the speech of part 2 of 3"). */
  what: string;
  /** Statuses the caller handles itself (answered, not thrown), e.g. 404 on a delete. */
  accept?: number[];
}

export type UpstreamResponse = ModelResponse;

export function upstreamFailure(config: UpstreamConfig, cause: string): ServiceError {
  return upstreamError(redact(`${providerLabel(config.provider)} (${new URL(config.baseUrl).host}) ${cause}`, config.apiKey));
}

export async function callUpstream(call: UpstreamCall, request: UpstreamRequest): Promise<UpstreamResponse> {
  const { config } = call;
  for (let attempt = 0; ; attempt += 1) {
    const response = await send(call, request);
    const { status } = response;
    if ((status >= 200 && status < 300) || request.accept?.includes(status)) return response;
    if (status !== 429 && status < 500) throw upstreamFailure(config, refusal(config, response, request.what));
    const hinted = retryHintSeconds(response);
    if (status === 429 && hinted !== undefined && hinted > MAX_RETRY_WAIT_SECONDS) {
      throw upstreamFailure(config, `is rate limiting requests (HTTP 429) and asks to wait ${Math.ceil(hinted)} s: ${providerMessage(response)}. Try again after that.`);
    }
    if (attempt >= MAX_RETRIES) {
      throw upstreamFailure(
        config,
        status === 429
          ? `is still rate limiting requests (HTTP 429) after ${MAX_RETRIES + 1} tries: ${providerMessage(response)}. Try again in a while.`
          : `failed ${request.what} with a server error (HTTP ${status}) ${MAX_RETRIES + 1} times: ${providerMessage(response)}. Try again later.`,
      );
    }
    await sleep(hinted !== undefined ? hinted * 1000 : (call.retryPauseMs ?? 1_000) * 2 ** attempt, undefined, call.signal ? { signal: call.signal } : {});
  }
}

async function send(call: UpstreamCall, request: UpstreamRequest): Promise<UpstreamResponse> {
  const { config } = call;
  const { timeoutMs } = config;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(`${config.baseUrl}${request.path}`, {
      method: request.method ?? 'POST',
      headers: request.headers,
      body: request.body?.(),
      signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  } catch (error) {
    if (call.signal?.aborted) throw call.signal.reason ?? error;
    if (timeout.aborted) throw upstreamFailure(config, `did not answer ${request.what} within ${Math.round(timeoutMs / 100) / 10} s. Try again later.`);
    const code = (error as { cause?: { code?: string } }).cause?.code;
    throw upstreamFailure(config, `could not be reached for ${request.what} (${code ?? (error as Error).message}). Check ${SPEECH_SETTINGS[config.provider].base_url.env} and the network.`);
  }
}

function refusal(config: UpstreamConfig, response: UpstreamResponse, what: string): string {
  const message = detailMessage(response);
  if (response.status === 401) {
    return `refused the API key (HTTP 401): ${message}. Check ${SPEECH_SETTINGS[config.provider].api_key.env} (or \`tubekit config set ${SPEECH_SETTINGS[config.provider].api_key.profile}\`) where the engine runs.`;
  }
  return `refused ${what} (HTTP ${response.status}): ${message}.`;
}

/** ElevenLabs says `{detail: {status, message}}` (or a list of them); others fall back to the common shapes. */
function detailMessage(response: UpstreamResponse): string {
  try {
    const body = JSON.parse(response.text) as { detail?: unknown };
    const detail = Array.isArray(body.detail) ? body.detail[0] : body.detail;
    if (typeof detail === 'string' && detail.trim()) return detail.trim();
    const message = (detail as { message?: unknown; msg?: unknown } | undefined)?.message ?? (detail as { msg?: unknown } | undefined)?.msg;
    if (typeof message === 'string' && message.trim()) return message.trim().replace(/[.\s]+$/, '');
  } catch {
    // not JSON
  }
  return providerMessage(response);
}

/** Reads a JSON body, or fails naming the provider and what it sent instead. */
export function upstreamJson<T>(config: UpstreamConfig, response: UpstreamResponse, expected: string): T {
  try {
    return JSON.parse(response.text) as T;
  } catch {
    const start = response.text.trim().slice(0, 120);
    throw upstreamFailure(config, `answered with something that is not ${expected}: ${start || 'an empty body'}.`);
  }
}
