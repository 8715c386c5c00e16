/**
 * The download rules that span requests and processes, each decision in one write transaction
 * on the shared database: the cache (hit, render, or wait for an identical render in progress),
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

export class DownloadLedger {
  readonly cache: DownloadCache;
  readonly slots: DownloadSlots;
  private readonly hours: HourlyDownloads;
  private sweptAt?: number;

  constructor(private readonly engine: EngineContext) {
    this.cache = new DownloadCache(engine.db, engine.clock, cdnDir(engine.dataDir));
    this.slots = new DownloadSlots(engine.db, engine.clock);
    this.hours = new HourlyDownloads(engine.db, engine.clock);
  }

  /**
   * Sweeps expired files and abandoned renders, at most once a minute of the engine's clock per
   * process (its own transaction: a refused request must not bring them back).
   */
  sweep(): void {
    const now = this.engine.clock.now();
    if (this.sweptAt !== undefined && now >= this.sweptAt && now - this.sweptAt < SWEEP_INTERVAL_MS) return;
    this.sweptAt = now;
    this.engine.db
      .transaction(() => {
        this.slots.freeDead();
        this.cache.sweep();
      })
      .immediate();
  }

  /** Decides a request: a cache hit (counted now), or a slot to render or wait with; else a 429. */
  admit(request: RequestContext, target: CacheTarget): Admission {
    const { user, limits } = request;
    return this.engine.db
      .transaction((): Admission => {
        this.slots.freeDead();
        const row = this.cache.get(target.key);
        const held = this.slots.heldBy(user.userId);
        const cap = limits.downloadsPerHour;
        if (cap !== null) {
          const recent = this.hours.recent(user.userId);
          // Downloads in progress will count when they answer; a cache hit answers now.
          if (recent.length + held.length >= cap) throw hourlyCapReached(request, cap, recent, held.length);
        }
        if (this.cache.isFresh(row)) {
          this.hours.record(user.userId);
          return { kind: 'hit', row: row! };
        }
        if (held.length >= limits.parallelDownloads) throw parallelCapReached(request, limits.parallelDownloads, held);
        const slotId = this.slots.acquire(user.userId, target.expectedMs);
        if (row?.state === 'rendering' && this.slots.isLive(row.render_slot)) return { kind: 'wait', slotId };
        this.cache.claim(target.key, target.videoId, target.format, target.path, slotId);
        return { kind: 'render', slotId };
      })
      .immediate();
  }

  /** A waiting request looks again: the file is ready, still being made, or its maker died (then this request takes it over). */
  recheck(target: CacheTarget, slotId: string): 'ready' | 'wait' | 'render' {
    // Reading needs no write lock; only taking the render over does.
    const seen = this.cache.get(target.key);
    if (this.cache.isFresh(seen)) return 'ready';
    if (seen?.state === 'rendering' && this.slots.isLive(seen.render_slot)) return 'wait';
    return this.engine.db
      .transaction(() => {
        const row = this.cache.get(target.key);
        if (this.cache.isFresh(row)) return 'ready';
        if (row?.state === 'rendering' && this.slots.isLive(row.render_slot)) return 'wait';
        this.cache.claim(target.key, target.videoId, target.format, target.path, slotId);
        return 'render';
      })
      .immediate();
  }

  /** The file is made: the cache row becomes ready. */
  rendered(target: CacheTarget, slotId: string, sizeBytes: number, durationSeconds: number): void {
    this.engine.db.transaction(() => this.cache.ready(target.key, slotId, sizeBytes, durationSeconds)).immediate();
  }

  /** A 200 answer: the slot is freed and the download counts toward the hour. */
  answered(userId: number, slotId: string): void {
    this.engine.db
      .transaction(() => {
        this.slots.release(slotId);
        this.hours.record(userId);
      })
      .immediate();
  }

  /** A failed or cancelled download: its slot and any render it had claimed go; nothing counts. */
  failed(target: CacheTarget, slotId: string): void {
    this.engine.db
      .transaction(() => {
        this.cache.abandon(target.key, slotId);
        this.slots.release(slotId);
      })
      .immediate();
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
