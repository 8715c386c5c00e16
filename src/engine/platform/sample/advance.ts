/**
 * Moving the world's clock forward. Never a regeneration: every other world_* table stays as it
 * is. In one transaction, for the span (t0, t1]:
 * - channels that appear in it are appended to world_channels (arrivals.ts);
 * - every channel's stats anchor walks forward to the last completed day and its current figures
 *   (subscribers, views, uploads) are set for t1 (stats.ts, uploads.ts);
 * - collab videos announced in it are recorded (collabs.ts);
 * - the clock in world_meta moves to t1.
 * Everything is a function of the seed and the total advanced: advancing 1d twice leaves exactly
 * the rows that advancing 2d once does.
 */
import type Database from 'better-sqlite3';
import type { AdvanceReport } from '../simulation.js';
import { DAY_MS, msToTimestamp } from '../../dates.js';
import { arrivalsBetween } from './arrivals.js';
import { ChannelGenerator, insertChannelRow, type ChannelRow, type TakenHandles } from './channels.js';
import { CollabRecorder, uploadSourceOf } from './collabs.js';
import { idKeys } from './ids.js';
import { streamSeed } from './prng.js';
import { totalsAt, totalsOnDays, type StatsSource } from './stats.js';
import { MAX_ANNOUNCE_DAYS, uploadsOn, type UploadStreams } from './uploads.js';
import { CLOCK_META_KEY, MAX_ADVANCE_MS, MIN_ADVANCE_MS, originMs, parseClock, writeClock } from './world-clock.js';

export type { AdvanceReport };

export interface AdvanceContext {
  db: Database.Database;
  seed: string;
  refDay: number;
  /** Channels generated (arrivals are numbered after them). */
  seedChannels: number;
  uploads: UploadStreams;
}

export function statsSourceOf(row: Pick<ChannelRow, 'sub_rate' | 'view_rate' | 'trend' | 'volatility' | 'noise' | 'created_at' | 'anchor_day' | 'day_subs' | 'day_views'>, refDay: number): StatsSource {
  const createdDay = Math.floor(Date.parse(row.created_at) / DAY_MS);
  return {
    model: { sub_rate: row.sub_rate, view_rate: row.view_rate, trend: row.trend, volatility: row.volatility, noise: row.noise },
    createdDay,
    arrival: createdDay > refDay,
    anchorDay: row.anchor_day,
    anchorSubs: row.day_subs,
    anchorViews: row.day_views,
  };
}

/** The columns `advance` reads: what moves, and what it moves along. */
const MOVING_COLUMNS = `idx, created_at, content_type, sub_rate, view_rate, trend, volatility, noise, anchor_day, day_subs, day_views,
  video_count, typical_views, upload_rate, collab_share, last_long_ms, last_short_ms`;
type MovingRow = Pick<
  ChannelRow,
  'idx' | 'created_at' | 'content_type' | 'sub_rate' | 'view_rate' | 'trend' | 'volatility' | 'noise' | 'anchor_day' | 'day_subs' | 'day_views'
  | 'video_count' | 'typical_views' | 'upload_rate' | 'collab_share' | 'last_long_ms' | 'last_short_ms'
>;

const UPDATE_COLUMNS = 9;
const UPDATE_BATCH = 100;

/**
 * The moved figures of every channel, written through a temporary table and one UPDATE … FROM:
 * on big worlds far cheaper than an UPDATE statement per row.
 */
class RowUpdates {
  private values: number[] = [];
  private readonly insertBatch;

  constructor(private readonly db: Database.Database) {
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS advance_rows (idx INTEGER PRIMARY KEY, anchor_day INTEGER, day_subs INTEGER, day_views INTEGER,
      subscribers INTEGER, total_views INTEGER, video_count INTEGER, last_long_ms INTEGER, last_short_ms INTEGER); DELETE FROM advance_rows;`);
    this.insertBatch = db.prepare(RowUpdates.insertSql(UPDATE_BATCH));
  }

  private static insertSql(rows: number): string {
    return `INSERT INTO advance_rows VALUES ${Array(rows).fill(`(${Array(UPDATE_COLUMNS).fill('?').join(',')})`).join(',')}`;
  }

  add(...row: [idx: number, anchorDay: number, daySubs: number, dayViews: number, subscribers: number, totalViews: number, videoCount: number, lastLong: number, lastShort: number]): void {
    this.values.push(...row);
    if (this.values.length === UPDATE_BATCH * UPDATE_COLUMNS) {
      this.insertBatch.run(this.values);
      this.values = [];
    }
  }

  apply(): void {
    if (this.values.length > 0) this.db.prepare(RowUpdates.insertSql(this.values.length / UPDATE_COLUMNS)).run(this.values);
    this.values = [];
    this.db.exec(`
      UPDATE world_channels SET anchor_day = r.anchor_day, day_subs = r.day_subs, day_views = r.day_views, subscribers = r.subscribers,
        total_views = r.total_views, video_count = r.video_count, last_long_ms = r.last_long_ms, last_short_ms = r.last_short_ms
      FROM advance_rows AS r WHERE world_channels.idx = r.idx;
      DELETE FROM advance_rows;
    `);
  }
}

export function checkAdvance(ms: number): void {
  if (!Number.isInteger(ms) || ms < MIN_ADVANCE_MS || ms > MAX_ADVANCE_MS) {
    throw new RangeError(`the world advances by 1 minute to 366 days at a time, not ${ms} ms`);
  }
}

export function advanceWorld(context: AdvanceContext, ms: number): AdvanceReport {
  checkAdvance(ms);
  return moveWorld(context, ms);
}

/**
 * Moves the world until `total` ms have been advanced since generation, from wherever its clock
 * is (nothing when it is there already): how a data dir's copy of a fleet's world catches up with
 * the fleet's clock (shared-world.ts). In spans of at most MAX_ADVANCE_MS, in one transaction;
 * advancing in spans leaves exactly the rows one advance would. Throws when the clock is past `total`.
 */
export function advanceWorldTo(context: AdvanceContext, total: number): void {
  const { db } = context;
  const run = db.transaction(() => {
    for (let at = storedClock(db).advanced_ms; at < total; at = storedClock(db).advanced_ms) moveWorld(context, Math.min(MAX_ADVANCE_MS, total - at));
    const at = storedClock(db).advanced_ms;
    if (at > total) throw new RangeError(`the world's clock (${at} ms advanced) is past ${total} ms`);
  });
  db.inTransaction ? run() : run.immediate();
}

function storedClock(db: Database.Database) {
  return parseClock(db.prepare('SELECT value FROM world_meta WHERE key = ?').pluck().get(CLOCK_META_KEY) as string | undefined);
}

function moveWorld(context: AdvanceContext, ms: number): AdvanceReport {
  const { db, seed, refDay, seedChannels } = context;
  const run = db.transaction(() => {
    const clock = storedClock(db);
    const t0 = originMs(refDay) + clock.advanced_ms;
    const t1 = t0 + ms;

    // New channels first, so the pass below brings them up to t1 like every other channel.
    const arrivals = arrivalsBetween(streamSeed(seed, 'arrival-times'), seedChannels, t0, t1);
    if (arrivals.length > 0) {
      const handleTaken = db.prepare('SELECT 1 FROM world_channels WHERE handle = ?').pluck();
      const taken: TakenHandles = { has: (handle) => handleTaken.get('@' + handle) !== undefined, add: () => undefined };
      const generator = new ChannelGenerator(seed, refDay, taken);
      arrivals.forEach((t, j) => insertChannelRow(db, generator.arrivalRow(seedChannels + clock.arrived_channels + j, Math.floor(t / DAY_MS))));
    }

    const recorder = new CollabRecorder(db, idKeys(seed, 'video'), scannedLookup(db));
    const updates = new RowUpdates(db);
    const rows = db.prepare(`SELECT ${MOVING_COLUMNS} FROM world_channels ORDER BY idx`).all() as MovingRow[];
    const lastComplete = Math.floor(t1 / DAY_MS) - 1;
    const firstDay = Math.floor(t0 / DAY_MS);
    const lastDay = Math.floor(t1 / DAY_MS);
    let published = 0;
    let collabs = 0;
    let breakouts = 0;
    for (const row of rows) {
      const source = statsSourceOf(row, refDay);
      const anchorDay = Math.max(lastComplete, source.anchorDay);
      const { subs, views } = totalsOnDays(source, refDay, anchorDay, anchorDay);
      const moved: StatsSource = { ...source, anchorDay, anchorSubs: subs[0]!, anchorViews: views[0]! };
      const now = totalsAt(moved, refDay, [t1])[0]!;

      const uploader = uploadSourceOf(row, refDay);
      const pool = row.collab_share > 0 ? recorder.pool(row.idx) : [];
      const scanTo = pool.length > 0 ? lastDay + MAX_ANNOUNCE_DAYS : lastDay;
      let ownPublished = 0;
      let lastLong = row.last_long_ms;
      let lastShort = row.last_short_ms;
      for (let day = Math.max(firstDay, uploader.firstDay); day <= scanTo; day++) {
        const uploads = uploadsOn(context.uploads, uploader, refDay, day);
        if (uploads.length === 0) continue;
        for (const upload of uploads) {
          if (upload.publishedMs > t0 && upload.publishedMs <= t1) {
            ownPublished += 1;
            if (upload.breakout) breakouts += 1;
            if (upload.kind === 'long') lastLong = Math.max(lastLong, upload.publishedMs);
            else lastShort = Math.max(lastShort, upload.publishedMs);
          }
        }
        if (pool.length > 0) collabs += recorder.recordUploads(row.idx, uploads.filter((upload) => upload.announcedMs > t0 && upload.announcedMs <= t1), pool);
      }
      published += ownPublished;
      updates.add(row.idx, anchorDay, moved.anchorSubs, moved.anchorViews, now.subscribers, now.views, row.video_count + ownPublished, lastLong, lastShort);
    }
    updates.apply();

    writeClock(db, {
      advanced_ms: clock.advanced_ms + ms,
      arrived_channels: clock.arrived_channels + arrivals.length,
      published_uploads: clock.published_uploads + published,
    });
    return {
      from: msToTimestamp(t0),
      to: msToTimestamp(t1),
      advanced_ms: ms,
      new_channels: arrivals.length,
      published_videos: published,
      new_collab_videos: collabs,
      breakouts,
    };
  });
  return db.inTransaction ? run() : run.immediate();
}

function scannedLookup(db: Database.Database): (idx: number) => boolean {
  const statement = db.prepare<[number], number>('SELECT collab_scanned FROM world_channels WHERE idx = ?').pluck();
  return (idx) => statement.get(idx) === 1;
}
