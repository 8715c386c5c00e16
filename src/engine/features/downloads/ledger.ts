/**
 * The download rules that span requests, processes and machines, each decision in one write
 * transaction on the engine's store (the data dir's SQLite, or a fleet's PostgreSQL with the
 * user's and the file's names locked): the cache (hit, render, or wait for an identical render in progress),
 * the hourly cap and the parallel cap, and the slot a download holds while it works.
 */
import type { EngineContext, RequestContext } from '../../context.js';
import { cdnDir } from '../../paths.js';
import { DownloadCache, type CacheRow } from './cache.js';
import { hourlyCapReached, parallelCapReached } from './caps.js';
import { HourlyDownloads } from './hourly-count.js';
import { DownloadSlots } from './slots.js';

const SWEEP_INTERVAL_MS = 60_000;

/** One file of the cache, as a request wants it. */
export interface CacheTarget {
  key: string;
  videoId: string;
  format: string;
  /** Where it goes under the CDN root. */
  path: string;
  /** About how long making it takes (the parallel cap's wait guidance). */
  expectedMs: number;
}

export type Admission =
  /** Ready in the cache: the answer is at hand, already counted. */
  | { kind: 'hit'; row: CacheRow }
  /** This request makes the file, holding `slotId`. */
  | { kind: 'render'; slotId: string }
  /** An identical request is making it: wait for that, holding `slotId`. */
  | { kind: 'wait'; slotId: string };

/** Names serialising, on every machine, the decisions about one user's caps and about one file. */
const userLock = (userId: number) => `downloads:user:${userId}`;
const fileLock = (key: string) => `downloads:file:${key}`;

export class DownloadLedger {
  readonly cache: DownloadCache;
  readonly slots: DownloadSlots;
  private readonly hours: HourlyDownloads;
  private sweptAt?: number;

  constructor(private readonly engine: EngineContext) {
    this.cache = new DownloadCache(engine.clock, cdnDir(engine.filesDir));
    this.slots = new DownloadSlots(engine.store, engine.clock);
    this.hours = new HourlyDownloads(engine.clock);
  }

  /** The cache row of `key` as it is now (a read: no lock). */
  current(key: string): Promise<CacheRow | undefined> {
    return this.cache.get(this.engine.store, key);
  }

  /**
   * Sweeps expired files and abandoned renders, at most once a minute of the engine's clock per
   * process (transactions of its own: a refused request must not bring them back). Each file goes
   * under its lock, so a sweep never removes a file another machine has just claimed again.
   */
  async sweep(): Promise<void> {
    const now = this.engine.clock.now();
    if (this.sweptAt !== undefined && now >= this.sweptAt && now - this.sweptAt < SWEEP_INTERVAL_MS) return;
    this.sweptAt = now;
    const { store } = this.engine;
    await store.transaction((tx) => this.slots.freeDead(tx));
    for (const row of await this.cache.sweepable(store)) {
      await store.transaction((tx) => this.cache.remove(tx, row), { locks: [fileLock(row.cache_key)] });
    }
  }

  /** Decides a request: a cache hit (counted now), or a slot to render or wait with; else a 429. */
  admit(request: RequestContext, target: CacheTarget): Promise<Admission> {
    const { user, limits } = request;
    // The user's caps and the file's render are decided together, each under its name on every machine.
    return this.engine.store.transaction(
      async (tx): Promise<Admission> => {
        await this.slots.freeDead(tx);
        const row = await this.cache.get(tx, target.key);
        const held = await this.slots.heldBy(tx, user.userId);
        const cap = limits.downloadsPerHour;
        if (cap !== null) {
          const recent = await this.hours.recent(tx, user.userId);
          // Downloads in progress will count when they answer; a cache hit answers now.
          if (recent.length + held.length >= cap) throw hourlyCapReached(request, cap, recent, held.length);
        }
        if (this.cache.isFresh(row)) {
          await this.hours.record(tx, user.userId);
          return { kind: 'hit', row: row! };
        }
        if (held.length >= limits.parallelDownloads) throw parallelCapReached(request, limits.parallelDownloads, held);
        const slotId = await this.slots.acquire(tx, user.userId, target.expectedMs);
        if (row?.state === 'rendering' && (await this.slots.isLive(tx, row.render_slot))) return { kind: 'wait', slotId };
        await this.cache.claim(tx, target.key, target.videoId, target.format, target.path, slotId);
        return { kind: 'render', slotId };
      },
      { locks: [userLock(user.userId), fileLock(target.key)] },
    );
  }

  /** A waiting request looks again: the file is ready, still being made, or its maker died (then this request takes it over). */
  async recheck(target: CacheTarget, slotId: string): Promise<'ready' | 'wait' | 'render'> {
    const { store } = this.engine;
    // Reading needs no lock; only taking the render over does.
    const seen = await this.cache.get(store, target.key);
    if (this.cache.isFresh(seen)) return 'ready';
    if (seen?.state === 'rendering' && (await this.slots.isLive(store, seen.render_slot))) return 'wait';
    return store.transaction(
      async (tx) => {
        const row = await this.cache.get(tx, target.key);
        if (this.cache.isFresh(row)) return 'ready';
        if (row?.state === 'rendering' && (await this.slots.isLive(tx, row.render_slot))) return 'wait';
        await this.cache.claim(tx, target.key, target.videoId, target.format, target.path, slotId);
        return 'render';
      },
      { locks: [fileLock(target.key)] },
    );
  }

  /** The file is made: the cache row becomes ready. */
  async rendered(target: CacheTarget, slotId: string, sizeBytes: number, durationSeconds: number): Promise<void> {
    await this.engine.store.transaction((tx) => this.cache.ready(tx, target.key, slotId, sizeBytes, durationSeconds), { locks: [fileLock(target.key)] });
  }

  /** A 200 answer: the slot is freed and the download counts toward the hour. */
  async answered(userId: number, slotId: string): Promise<void> {
    await this.engine.store.transaction(
      async (tx) => {
        await this.slots.release(tx, slotId);
        await this.hours.record(tx, userId);
      },
      { locks: [userLock(userId)] },
    );
  }

  /** A failed or cancelled download: its slot and any render it had claimed go; nothing counts. */
  async failed(target: CacheTarget, slotId: string): Promise<void> {
    await this.engine.store.transaction(
      async (tx) => {
        await this.cache.abandon(tx, target.key, slotId);
        await this.slots.release(tx, slotId);
      },
      { locks: [fileLock(target.key)] },
    );
  }
}

const ledgers = new WeakMap<EngineContext, DownloadLedger>();

/** One ledger (and its prepared statements) per engine. */
export function ledgerFor(engine: EngineContext): DownloadLedger {
  let ledger = ledgers.get(engine);
  if (!ledger) {
    ledger = new DownloadLedger(engine);
    ledgers.set(engine, ledger);
  }
  return ledger;
}
