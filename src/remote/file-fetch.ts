/**
 * Fetching a file the service handed out (audio_url, download_url) from wherever it lives — the
 * API host or a separate CDN:
 *  - never with the API key: the URLs are public capabilities, so the key cannot leak to a CDN or
 *    to a host a redirect leads to;
 *  - with tubekit's own user agent, and a browser's when a host refuses it (403), as the hosted
 *    service's CDN does with some default client agents — remembered for the rest of the run;
 *  - resuming a transfer that breaks with a Range request from the byte where it stopped
 *    (If-Range keeps a changed file from being spliced), a few times before giving up; a host
 *    that ignores Range is read again from the start, skipping what was already delivered.
 */
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import type { ServiceError } from '../core/errors.js';
import { redactUrl } from './trace.js';

export const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const MAX_RESUMES = 4;

const refusesOwnAgent = new Set<string>();

export interface FileFetchOptions {
  dispatcher: Dispatcher;
  userAgent: string;
  signal?: AbortSignal;
  trace?: (line: string) => void;
  /** Turns a failed answer or connection into the error the caller reports. */
  failure(status: number | undefined, text: string, cause?: unknown): ServiceError;
}

interface Opened {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  body: Dispatcher.ResponseData['body'];
}

export async function fetchFileResumable(url: string, options: FileFetchOptions): Promise<Readable> {
  const origin = new URL(url).origin;
  const open = async (headers: Record<string, string>): Promise<Opened> => {
    const agent = refusesOwnAgent.has(origin) ? BROWSER_USER_AGENT : options.userAgent;
    let response = await send(url, { ...headers, 'user-agent': agent }, options);
    if (response.statusCode === 403 && agent !== BROWSER_USER_AGENT) {
      await response.body.dump();
      options.trace?.(`  ${origin} refused the user agent; retrying as a browser`);
      refusesOwnAgent.add(origin);
      response = await send(url, { ...headers, 'user-agent': BROWSER_USER_AGENT }, options);
    }
    return { status: response.statusCode, headers: response.headers, body: response.body };
  };

  const first = await open({});
  if (first.status !== 200) throw options.failure(first.status, await first.body.text());
  const total = numberHeader(first.headers['content-length']);
  const validator = textHeader(first.headers.etag) ?? textHeader(first.headers['last-modified']);

  async function* transfer(): AsyncGenerator<Buffer> {
    let body = first.body;
    let received = 0;
    let skip = 0;
    for (let resumes = 0; ; ) {
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          const usable = skip > 0 ? chunk.subarray(Math.min(skip, chunk.length)) : chunk;
          skip -= chunk.length - usable.length;
          if (usable.length === 0) continue;
          received += usable.length;
          resumes = 0; // progress was made: the budget of attempts starts again
          yield usable;
        }
        if (total === undefined || received >= total) return;
        throw new Error(`the connection closed after ${received} of ${total} bytes`);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        if (resumes >= MAX_RESUMES) throw options.failure(undefined, `the transfer kept breaking: ${(error as Error).message}`);
        resumes += 1;
        options.trace?.(`  transfer broke at byte ${received} (${(error as Error).message}); resuming`);
        await sleep(100 * 2 ** (resumes - 1), undefined, { signal: options.signal });
        const next = await open({ range: `bytes=${received}-`, ...(validator ? { 'if-range': validator } : {}) }).catch((cause: unknown) => {
          if (options.signal?.aborted) throw cause;
          return undefined;
        });
        if (!next) continue;
        if (next.status === 206 && textHeader(next.headers['content-range'])?.startsWith(`bytes ${received}-`)) {
          body = next.body;
          skip = 0;
        } else if (next.status === 200) {
          body = next.body; // Range ignored (or the file changed and If-Range said so): read past what we have
          skip = received;
        } else {
          await next.body.dump();
          throw options.failure(next.status, `Resuming the transfer of ${url} failed with HTTP ${next.status}.`);
        }
      }
    }
  }
  return Readable.from(transfer(), { objectMode: false });
}

async function send(url: string, headers: Record<string, string>, options: FileFetchOptions): Promise<Dispatcher.ResponseData> {
  options.trace?.(`→ GET ${redactUrl(url)}${headers.range ? ` (${headers.range})` : ''}`);
  try {
    const response = await request(url, { method: 'GET', headers, dispatcher: options.dispatcher, signal: options.signal });
    options.trace?.(`← ${response.statusCode}`);
    return response;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw options.failure(undefined, (error as Error).message, error);
  }
}

const textHeader = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function numberHeader(value: string | string[] | undefined): number | undefined {
  const text = textHeader(value);
  return text && /^\d+$/.test(text) ? Number(text) : undefined;
}
