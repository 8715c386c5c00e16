/**
 * The raw responses of one read, kept while it runs, so a page the parser does not understand can be
 * saved for a bug report (under `<data dir>/platform-raw/`) with the request that got it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';

export interface RawExchange {
  method: string;
  url: string;
  /** The request's stable fields (browseId, params, continuation, videoId, url), when JSON. */
  request: Record<string, unknown>;
  status: number;
  body: string;
}

const trail = new AsyncLocalStorage<RawExchange[]>();

/** Runs `read` keeping the responses it gets. */
export function withRawTrail<T>(read: () => Promise<T>): Promise<T> {
  return trail.run([], read);
}

export function recordExchange(exchange: RawExchange): void {
  const exchanges = trail.getStore();
  if (!exchanges) return;
  exchanges.push(exchange);
  if (exchanges.length > 8) exchanges.shift();
}

export function lastExchange(): RawExchange | undefined {
  return trail.getStore()?.at(-1);
}

export const rawResponsesDir = (dataDir: string) => path.join(dataDir, 'platform-raw');

/**
 * What platform-raw/ keeps: the start of each answer, the newest answers of each endpoint, and the
 * newest files overall (a hostile site cannot fill the disk; a bug report still has what it needs).
 */
export const RAW_LIMITS = { bodyChars: 1024 * 1024, files: 50, perEndpoint: 20 };

/** Saves the read's last response; the file's path, or null when there is none or it cannot be written. */
export function saveLastExchange(dataDir: string, label: string, nowMs = Date.now()): string | null {
  const exchange = lastExchange();
  if (!exchange) return null;
  const dir = rawResponsesDir(dataDir);
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
  const endpoint = endpointOf(exchange.url);
  const file = path.join(dir, `${stamp}--${endpoint}--${label.replace(/[^\w-]+/g, '_')}.json`);
  const kept =
    exchange.body.length > RAW_LIMITS.bodyChars ? { ...exchange, body: exchange.body.slice(0, RAW_LIMITS.bodyChars), body_chars: exchange.body.length, body_truncated: true } : exchange;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${JSON.stringify(kept, null, 1)}\n`, { mode: 0o600 });
    pruneSaved(dir, (name) => name.includes(`--${endpoint}--`), RAW_LIMITS.perEndpoint);
    pruneSaved(dir, () => true, RAW_LIMITS.files);
    return file;
  } catch {
    return null;
  }
}

/** `browse`, `player`, `navigation_resolve_url`, `api_timedtext`: the request's path, as a file-name part. */
function endpointOf(url: string): string {
  return new URL(url).pathname.replace(/^\/(youtubei\/v1\/)?/, '').replace(/[^\w-]+/g, '_') || 'root';
}

/** Keeps the newest `keep` saved answers of an endpoint (names start with a sortable time). */
/** Removes all but the newest `keep` saved answers that `chosen` picks (names start with the time). */
function pruneSaved(dir: string, chosen: (name: string) => boolean, keep: number): void {
  const saved = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json') && chosen(name))
    .sort();
  for (const name of saved.slice(0, Math.max(0, saved.length - keep))) fs.rmSync(path.join(dir, name), { force: true });
}

/** A short name of the request, for messages: `POST /youtubei/v1/browse {browseId: UC…}`. */
export function describeExchange(exchange: Pick<RawExchange, 'method' | 'url' | 'request'>): string {
  const url = new URL(exchange.url);
  const fields = Object.entries(exchange.request)
    .map(([key, value]) => `${key}: ${String(value).slice(0, 40)}`)
    .join(', ');
  return `${exchange.method} ${url.pathname}${fields ? ` {${fields}}` : ''}`;
}
