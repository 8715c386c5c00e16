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

/** What platform-raw/ keeps: the start of each answer, and the newest files only (a hostile site cannot fill the disk). */
export const RAW_LIMITS = { bodyChars: 1024 * 1024, files: 50 };

/** Saves the read's last response; the file's path, or null when there is none or it cannot be written. */
export function saveLastExchange(dataDir: string, label: string, nowMs = Date.now()): string | null {
  const exchange = lastExchange();
  if (!exchange) return null;
  const dir = rawResponsesDir(dataDir);
  const stamp = new Date(nowMs).toISOString().replace(/[:.]/g, '-');
  const file = path.join(dir, `${stamp}-${label.replace(/[^\w-]+/g, '_')}.json`);
  const kept =
    exchange.body.length > RAW_LIMITS.bodyChars ? { ...exchange, body: exchange.body.slice(0, RAW_LIMITS.bodyChars), body_chars: exchange.body.length, body_truncated: true } : exchange;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${JSON.stringify(kept, null, 1)}\n`, { mode: 0o600 });
    // Names start with the time, so the oldest sort first.
    const saved = fs.readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
    for (const old of saved.slice(0, Math.max(0, saved.length - RAW_LIMITS.files))) fs.rmSync(path.join(dir, old), { force: true });
    return file;
  } catch {
    return null;
  }
}

/** A short name of the request, for messages: `POST /youtubei/v1/browse {browseId: UC…}`. */
export function describeExchange(exchange: Pick<RawExchange, 'method' | 'url' | 'request'>): string {
  const url = new URL(exchange.url);
  const fields = Object.entries(exchange.request)
    .map(([key, value]) => `${key}: ${String(value).slice(0, 40)}`)
    .join(', ');
  return `${exchange.method} ${url.pathname}${fields ? ` {${fields}}` : ''}`;
}
