/**
 * A stand-in for the video site on 127.0.0.1, for the live platform's tests (never the internet).
 * It answers recorded exchanges keyed by method, path and the request's stable fields — InnerTube
 * body fields (`browseId`, `params`, `continuation`, `videoId`, `url`) or, for GETs, the query's
 * `v`, `lang`, `kind` and `fmt` — never the whole body or the rest of the query. Anything unrecorded gets a 404, is
 * listed in `unmatched`, and fails the test when the server closes (gh's httpmock rule): a 404 a test
 * expects is an exchange it records, so a test cannot pass by accident.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const PLATFORM_FIXTURES = path.resolve(import.meta.dirname, '../fixtures/platform');

export interface FixtureExchange {
  method: 'GET' | 'POST';
  path: string;
  /** The stable fields the request must carry, exactly (and no other stable field). */
  key: Record<string, string>;
  status?: number;
  headers?: Record<string, string>;
  /**
   * A file under test/fixtures/platform, or the body itself, or a function making it per request
   * (figures that move with a test's clock; a fault a test injects: another status, or no answer).
   */
  file?: string;
  body?: string;
  render?: () => string | RenderedAnswer;
  /** Answer this many times, then fall through to the next matching exchange (a 429 that clears). */
  times?: number;
}

/** An answer a `render` gives instead of a 200 body: another status and body, or none at all (a timeout). */
export type RenderedAnswer = { status: number; body: string } | { hang: true };

export interface SeenRequest {
  method: string;
  path: string;
  key: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  atMs: number;
}

const BODY_FIELDS = ['browseId', 'params', 'continuation', 'videoId', 'url'];
const QUERY_FIELDS = ['v', 'lang', 'kind', 'fmt'];

function requestKey(method: string, url: URL, body: string): Record<string, string> {
  const key: Record<string, string> = {};
  if (method === 'POST') {
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(body) as Record<string, unknown>;
    } catch {
      // not JSON: no fields
    }
    for (const field of BODY_FIELDS) if (typeof parsed[field] === 'string') key[field] = parsed[field] as string;
  } else {
    for (const field of QUERY_FIELDS) {
      const value = url.searchParams.get(field);
      if (value !== null) key[field] = value;
    }
  }
  return key;
}

/**
 * An exchange answers a request of its method and path carrying exactly its stable fields, no more
 * and no fewer: one lookup, however many exchanges a site records (a bench's thousand channels).
 */
function lookupKey(method: string, pathname: string, key: Record<string, string>): string {
  return JSON.stringify([method, pathname, Object.entries(key).sort(([a], [b]) => a.localeCompare(b))]);
}

export interface FixtureServer {
  origin: string;
  seen: SeenRequest[];
  unmatched: SeenRequest[];
  close(): Promise<void>;
}

export interface FixtureServerOptions {
  /** Paths that never answer (a timeout). */
  hang?: string[];
  /** Let unrecorded requests pass (a fault test that asks for whatever the code under test reads). */
  allowUnmatched?: boolean;
}

export async function startFixtureServer(exchanges: FixtureExchange[], options: FixtureServerOptions = {}): Promise<FixtureServer> {
  const byKey = new Map<string, Array<{ exchange: FixtureExchange; left: number }>>();
  for (const exchange of exchanges) {
    const lookup = lookupKey(exchange.method, exchange.path, exchange.key);
    byKey.set(lookup, [...(byKey.get(lookup) ?? []), { exchange, left: exchange.times ?? Infinity }]);
  }
  const seen: SeenRequest[] = [];
  const unmatched: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      const method = req.method ?? 'GET';
      const key = requestKey(method, url, Buffer.concat(chunks).toString('utf8'));
      const request: SeenRequest = { method, path: url.pathname, key, headers: req.headers, atMs: Date.now() };
      seen.push(request);
      if (options.hang?.includes(url.pathname)) return; // never answers: a timeout
      const found = byKey.get(lookupKey(method, url.pathname, key))?.find((entry) => entry.left > 0);
      if (!found) {
        unmatched.push(request);
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`unrecorded: ${method} ${url.pathname} ${JSON.stringify(key)}`);
        return;
      }
      found.left--;
      const { exchange } = found;
      const rendered = exchange.render?.();
      if (rendered && typeof rendered === 'object' && 'hang' in rendered) return;
      const answer = rendered && typeof rendered === 'object' ? rendered : undefined;
      const body = exchange.file ? fs.readFileSync(path.join(PLATFORM_FIXTURES, exchange.file)) : answer ? answer.body : (rendered ?? exchange.body ?? '');
      const type =
        exchange.file?.endsWith('.json') || exchange.render ? 'application/json; charset=UTF-8' : exchange.file?.endsWith('.html') ? 'text/html; charset=UTF-8' : 'text/plain; charset=UTF-8';
      res.writeHead(answer?.status ?? exchange.status ?? 200, { 'content-type': type, ...exchange.headers }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    unmatched,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      if (unmatched.length > 0 && !options.allowUnmatched) {
        const listed = unmatched.slice(0, 5).map((request) => `${request.method} ${request.path} ${JSON.stringify(request.key)}`);
        throw new Error(`the fixture site was asked ${unmatched.length} unrecorded request(s): ${listed.join('; ')}`);
      }
    },
  };
}

/** An origin where nothing listens (a port just freed): connections are refused. */
export async function closedOrigin(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
