/**
 * The refresh sweep of a live data dir: it re-reads the watched channels that are due (each every
 * 6 hours by default), scans the roots and their partners for collabs, records the channels it
 * finds terminated or deleted, and ends with an alert evaluation cycle over the index — on the live
 * platform, the sweep is the alert cycle and the collab scan.
 *
 * Bounded: at most `limit` channels a sweep; the rest stay due for the next. Paced: every read goes
 * through the live platform's fetch, which paces requests per host. Resumable: what is due is
 * state in the database (each channel's last read), so a sweep that stopped leaves the rest due.
 * Safe with two processes: a channel is read under a lease (refresh-store.ts), so two sweeps at
 * once share the due channels instead of reading them twice.
 *
 * If the platform cannot be reached, or refuses after its retries, the sweep stops there: the
 * channels it had claimed are given back untouched, and the error is thrown (exit 9 or 8).
 */
import { randomUUID } from 'node:crypto';
import { ServiceError } from '../../../core/errors.js';
import { formatDuration } from '../../../core/duration.js';
import { isoTime } from '../../clock.js';
import type { EngineContext } from '../../context.js';
import { runAlertCycle, type CycleReason, type CycleReport } from '../alerts/cycle.js';
import { readWatchedChannel, unreadChannel, type WatchedRead } from './read-watched.js';
import { terminatedRecords, terminationSink, type TerminationSink } from './record-terminations.js';
import { RefreshStore, type DueChannel } from './refresh-store.js';
import { refreshInterval } from './schedule-setting.js';
import { watchList, watchedByUsers } from './watch-list.js';

export const DEFAULT_SWEEP_LIMIT = 500;
/** Channels read at once: enough to keep the paced fetch busy while one read waits on the network. */
export const DEFAULT_SWEEP_CONCURRENCY = 4;
/** A claim outlives any one channel's read (a dozen paced requests). */
const LEASE_MS = 10 * 60_000;

/** Failures that would fail every other read too: the sweep stops at the first. */
const STOPPING_CODES = new Set(['platform_unreachable', 'platform_refused']);

export interface SweepOptions {
  reason?: CycleReason;
  /** Channels read at most (default 500). */
  limit?: number;
  concurrency?: number;
  /** Where terminated channels are recorded (default: the data dir's terminated store, when connected). */
  terminations?: TerminationSink | null;
  signal?: AbortSignal;
  /** Told after each channel is read (progress). */
  onRead?: (read: RefreshedChannel) => void;
}

export type RefreshedChannel = WatchedRead | (Omit<WatchedRead, 'state'> & { state: 'failed'; error: string });

export interface RefreshReport {
  started_at: string;
  /** How often each watched channel is re-read. */
  interval: string;
  /** Channels the sweep keeps fresh (saved, of enabled alerts, seen in collabs). */
  watched: number;
  /** Of those, due at the start of this sweep. */
  due: number;
  read: RefreshedChannel[];
  /** Due channels this sweep did not read (its limit, or read meanwhile by another process): the next sweep's. */
  left: number;
  /** Channels found terminated or deleted in this sweep; `recorded` is null while no terminated store is connected. */
  terminations: { channel_ids: string[]; recorded: number | null };
  alerts: CycleReport;
  duration_ms: number;
}

export async function runRefreshSweep(engine: EngineContext, options: SweepOptions = {}): Promise<RefreshReport> {
  const started = performance.now();
  const [platform, index] = await Promise.all([engine.platform(), engine.index()]);
  if (!index.reads) {
    throw new ServiceError({
      status: 409,
      code: 'conflict',
      message: 'The refresh sweep reads the live platform; this data dir uses the sample world, whose figures move with its own clock.',
      hint: 'Move the sample world with `tubekit engine world advance 1d`, or use a live data dir (`tubekit --data-dir <dir> engine platform live`).',
    });
  }
  const reads = index.reads;
  const store = new RefreshStore(engine.store);
  const now = engine.clock.now();
  const interval = refreshInterval(engine.settings);
  const list = await watchList(store, await watchedByUsers(engine.store), now);
  const group = (idx: number) => (list.scanned.has(idx) ? 0 : 1);
  const due = (await store.due(list.watched, now - interval)).sort((a, b) => group(a.idx) - group(b.idx) || (a.last_swept_ms ?? -1) - (b.last_swept_ms ?? -1) || a.idx - b.idx);
  const queue = due.slice(0, options.limit ?? DEFAULT_SWEEP_LIMIT);
  const owner = `sweep-${process.pid}-${randomUUID()}`;
  // In the order the channels were due, however the concurrent reads finish.
  const results: Array<RefreshedChannel | undefined> = [];
  const gone = new Set<string>();
  let stop: unknown;

  const readOne = async (channel: DueChannel, slot: number) => {
    // A claim re-checks that the channel is still due and active: a gone one is not read again.
    if (!(await store.claim(channel.idx, owner, engine.clock.now(), LEASE_MS, now - interval))) return;
    try {
      const result = await readWatchedChannel(platform, reads, store, channel.channel_id, { scan: list.scanned.has(channel.idx), shorts: list.shortsAlerts });
      await store.succeeded(channel.idx, owner, engine.clock.now());
      if (result.state !== 'active') gone.add(channel.channel_id);
      results[slot] = result;
      options.onRead?.(result);
    } catch (error) {
      if (isStopping(error) || options.signal?.aborted) {
        await store.release(channel.idx, owner);
        stop ??= error;
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      await store.failed(channel.idx, owner, engine.clock.now(), message);
      const failed: RefreshedChannel = { ...unreadChannel(channel.channel_id), state: 'failed', error: message };
      results[slot] = failed;
      options.onRead?.(failed);
    }
  };

  let next = 0;
  const worker = async () => {
    while (stop === undefined && !options.signal?.aborted && next < queue.length) {
      const slot = next++;
      await readOne(queue[slot]!, slot);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? DEFAULT_SWEEP_CONCURRENCY) }, worker));
  const read = results.filter((result): result is RefreshedChannel => result !== undefined);
  const found = read.filter((result) => gone.has(result.channel_id)).map((result) => result.channel_id);
  // Recorded even when the sweep stops: a gone channel is not read again, so this is its one chance.
  const sink = options.terminations === undefined ? terminationSink(engine) : options.terminations;
  const records = found.length > 0 && sink ? await terminatedRecords(engine, index, found) : [];
  const recorded = sink ? (records.length > 0 ? (await sink(records)).recorded : 0) : null;
  if (stop !== undefined) throw stop;
  options.signal?.throwIfAborted();
  const alerts = await runAlertCycle(engine, options.reason ?? 'command');
  return {
    started_at: isoTime(now),
    interval: formatDuration(interval),
    watched: list.watched.length,
    due: due.length,
    read,
    left: due.length - read.length,
    terminations: { channel_ids: found, recorded },
    alerts,
    duration_ms: Math.round(performance.now() - started),
  };
}

function isStopping(error: unknown): boolean {
  return error instanceof ServiceError && STOPPING_CODES.has(error.code);
}
