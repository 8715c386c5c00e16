/**
 * The InnerTube client: youtubei.js, created with no network call and our fetch, fixed to
 * English/US so figures read the same everywhere. youtubei.js is imported here only, and only at
 * the live platform's first read (never at CLI start-up, nor by a command that reads no page).
 */
import { ServiceError } from '../../../core/errors.js';
import { platformPageNotUnderstood } from './errors.js';
import type { FetchLike } from './live-fetch.js';
import { describeExchange, lastExchange, saveLastExchange } from './raw-responses.js';
import { fileVerdict, innertubeVerdict } from './read-verdict.js';

export interface InnertubeCall {
  /** The parsed JSON, or null when the site said in its own words that the thing does not exist (read-verdict.ts). */
  data: unknown | null;
  status: number;
}

export interface InnertubeClient {
  /** POST /youtubei/v1/<endpoint> with the session's context and `body`. */
  call(endpoint: string, body: Record<string, unknown>): Promise<InnertubeCall>;
  /** A GET through the same fetch (caption tracks): the body of a 2xx answer; any other status fails the read. */
  get(url: string): Promise<{ status: number; text: string }>;
  /** Raises "page not understood" for the read's last response, saving it under the data dir. */
  notUnderstood(what: string, missing: string): never;
}

/** youtubei.js's session, made with no network call. */
async function createSession(fetch: FetchLike) {
  const { Innertube } = await import('youtubei.js');
  return Innertube.create({
    generate_session_locally: true,
    retrieve_player: false,
    retrieve_innertube_config: false,
    enable_session_cache: false,
    lang: 'en',
    location: 'US',
    fetch: fetch as typeof globalThis.fetch,
  });
}

export async function createInnertube(fetch: FetchLike, dataDir: string): Promise<InnertubeClient> {
  // youtubei.js (about a second to import) is loaded at the first read: commands that read no page never load it.
  let opening: ReturnType<typeof createSession> | undefined;
  const session = () => {
    opening ??= createSession(fetch).catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };

  function notUnderstood(what: string, missing: string): never {
    const exchange = lastExchange();
    const request = exchange ? describeExchange(exchange) : what;
    throw platformPageNotUnderstood(request, missing, saveLastExchange(dataDir, what));
  }

  return {
    async call(endpoint, body) {
      try {
        const yt = await session();
        const response = await yt.actions.execute(endpoint, { ...body, parse: false });
        // A JSON `null` or a bare value is not an answer: never mistaken for "does not exist".
        if (typeof response.data !== 'object' || response.data === null) notUnderstood(endpoint, 'the answer is not a JSON object');
        return { data: response.data as unknown, status: response.status_code };
      } catch (error) {
        // Our fetch's own errors (unreachable, refused) pass through; youtubei.js raises on any other non-2xx.
        if (error instanceof ServiceError) throw error;
        const exchange = lastExchange();
        if (exchange && exchange.status >= 300 && exchange.url.includes(endpoint)) {
          const verdict = innertubeVerdict(endpoint, body, exchange.status, exchange.body, describeExchange(exchange));
          if (verdict.kind === 'absent') return { data: null, status: exchange.status };
          if (verdict.kind === 'failed') throw verdict.error;
        }
        if (error instanceof SyntaxError) notUnderstood(endpoint, 'the answer is not JSON');
        throw error;
      }
    },
    async get(url) {
      const response = await fetch(url);
      const text = await response.text();
      const exchange = lastExchange();
      const verdict = fileVerdict(response.status, exchange ? describeExchange(exchange) : `GET ${new URL(url).pathname}`);
      if (verdict.kind === 'failed') throw verdict.error;
      return { status: response.status, text };
    },
    notUnderstood,
  };
}
