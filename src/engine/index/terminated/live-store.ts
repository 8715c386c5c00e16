/**
 * Writes of the live store of terminated channels (live-schema.ts): one channel at a time, in the
 * caller's transaction. A channel recorded again is merged into its row, never duplicated:
 *
 *  - the termination time is the earlier of the two (the channel was already gone when first
 *    recorded; a later sighting does not move it);
 *  - every other field takes the new value where the new record has one, and keeps the stored
 *    one where it has none (null): a figure once known is not forgotten;
 *  - the top videos are replaced when the new record lists some.
 */
import type Database from 'better-sqlite3';
import { dayOfMs, keySlots } from './live-keys.js';
import { DAYS_TABLE, ensureLiveTerminatedTables, LIVE_LAYOUT, STATS_TABLE } from './live-schema.js';
import { nameLengthToken, searchableText, tokensOf } from './search-text.js';

/** Top videos a channel keeps (the answer's `recent_videos`: the top 3 by views). */
export const TOP_VIDEOS = 3;

export interface StoredVideo {
  video_id: string;
  title: string;
  views: number;
  kind: 'long' | 'short';
}

/** One channel as the store keeps it: checked, every unknown figure null. */
export interface TerminatedEntry {
  channel_id: string;
  title: string;
  terminated_ms: number;
  language_code: string | null;
  content_type: 'longform' | 'shorts' | 'mixed' | null;
  low_quality: boolean | null;
  monetized: boolean | null;
  first_upload_day: number | null;
  subscribers: number | null;
  total_views: number | null;
  video_count: number | null;
  /** As given; else total views over videos when both are known. */
  avg_views: number | null;
  views_24h: number | null;
  subs_24h: number | null;
  views_48h: number | null;
  subs_48h: number | null;
  thumbnail_url: string | null;
  /** Most viewed first, at most TOP_VIDEOS. */
  top_videos: StoredVideo[];
}

export type WriteOutcome = 'loaded' | 'updated';

/** A channel's stored row as both stores read it back (SQLite's rows and facts joined; Postgres's one table). */
export interface StoredRow {
  idx: number;
  recorded_ms: number;
  channel_id: string;
  title: string;
  terminated_ms: number;
  language_code: string | null;
  content_type: TerminatedEntry['content_type'];
  low_quality: number | null;
  monetized: number | null;
  first_upload_day: number | null;
  subs: number | null;
  views: number | null;
  videos: number | null;
  avg_views: number | null;
  views_24h: number | null;
  subs_24h: number | null;
  views_48h: number | null;
  subs_48h: number | null;
  thumbnail_url: string | null;
  top_videos: string;
}

const { rows, facts, search } = LIVE_LAYOUT;
/** Booleans are stored as 1/0 (null: unknown) in both stores. */
export const flag = (value: boolean | null) => (value === null ? null : value ? 1 : 0);
export const unflag = (value: number | null) => (value === null ? null : value === 1);

/** Total views over videos, when both are known (a channel with no videos has no average). */
export function averageViews(views: number | null, videos: number | null): number | null {
  return views === null || videos === null || videos === 0 ? null : Math.floor(views / videos);
}

/** The columns both stores derive from an entry the same way (its day, average, age, videos as stored, name's words). */
export function derivedColumns(entry: TerminatedEntry) {
  const day = dayOfMs(entry.terminated_ms);
  return {
    terminated_day: day,
    avg_views: entry.avg_views ?? averageViews(entry.total_views, entry.video_count),
    age: entry.first_upload_day === null ? null : day - entry.first_upload_day,
    top_videos: JSON.stringify(entry.top_videos.map((video) => [video.title, video.views, video.kind, video.video_id])),
    title_tokens: tokensOf(entry.title).length,
  };
}

export class LiveTerminatedStore {
  private readonly statements;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    ensureLiveTerminatedTables(db);
    const prepare = (sql: string) => db.prepare(sql);
    this.statements = {
      byChannel: prepare(`SELECT t.idx, t.recorded_ms, t.channel_id, t.title, t.terminated_ms, t.language_code, t.content_type, t.low_quality,
          f.monetized, t.first_upload_day, f.subs, f.views, f.videos, f.avg_views, f.views_24h, f.subs_24h, f.views_48h, t.subs_48h,
          t.thumbnail_url, t.top_videos
        FROM ${rows} t JOIN ${facts} f ON f.idx = t.idx WHERE t.channel_id = ?`),
      exists: prepare(`SELECT 1 FROM ${rows} WHERE channel_id = ?`).pluck(),
      lastKeyIn: prepare(`SELECT max(idx) FROM ${rows} WHERE idx >= ? AND idx < ?`).pluck(),
      insertRow: prepare(`INSERT INTO ${rows} (idx, channel_id, title, language_code, content_type, low_quality, first_upload_day,
          terminated_day, terminated_ms, subs_48h, top_videos, thumbnail_url, recorded_ms, updated_ms)
        VALUES (@idx, @channel_id, @title, @language_code, @content_type, @low_quality, @first_upload_day,
          @terminated_day, @terminated_ms, @subs_48h, @top_videos, @thumbnail_url, @recorded_ms, @updated_ms)`),
      insertFacts: prepare(`INSERT INTO ${facts} (idx, subs, views, avg_views, videos, age, language, monetized, views_24h, subs_24h, views_48h, title_tokens)
        VALUES (@idx, @subs, @views, @avg_views, @videos, @age, @language, @monetized, @views_24h, @subs_24h, @views_48h, @title_tokens)`),
      insertSearch: prepare(`INSERT INTO ${search} (rowid, title, videos, meta) VALUES (?, ?, ?, ?)`),
      deleteRow: prepare(`DELETE FROM ${rows} WHERE idx = ?`),
      deleteFacts: prepare(`DELETE FROM ${facts} WHERE idx = ?`),
      deleteSearch: prepare(`DELETE FROM ${search} WHERE rowid = ?`),
      countDay: prepare(`INSERT INTO ${DAYS_TABLE} (day, n) VALUES (?, ?) ON CONFLICT (day) DO UPDATE SET n = n + excluded.n`),
      dropEmptyDay: prepare(`DELETE FROM ${DAYS_TABLE} WHERE day = ? AND n <= 0`),
      countChannels: prepare(`UPDATE ${STATS_TABLE} SET count = count + ?, longest_name = max(longest_name, ?) WHERE id = 1`),
    };
  }

  /** Whether the channel is stored. */
  has(channelId: string): boolean {
    return this.statements.exists.get(channelId) !== undefined;
  }

  /**
   * Full-text rows of the write in progress, by key. FTS5 keeps each term's rowids sorted: a rowid
   * below the last one it was given makes it write out everything it holds, so a batch of keys in
   * any order would make a segment per channel. They are added in key order when the batch ends.
   */
  private pendingSearch = new Map<number, [title: string, videos: string, meta: string]>();

  /** Records each channel: a new one is loaded, a stored one updated (see the top of this file). Run it in a transaction. */
  write(entries: Iterable<TerminatedEntry>): { loaded: number; updated: number } {
    const outcome = { loaded: 0, updated: 0 };
    const ordered = orderedBatch(entries);
    try {
      for (const { entry, repeats } of ordered) {
        outcome[this.writeOne(entry)] += 1;
        outcome.updated += repeats;
      }
      for (const key of [...this.pendingSearch.keys()].sort((a, b) => a - b)) this.statements.insertSearch.run(BigInt(key), ...this.pendingSearch.get(key)!);
    } finally {
      this.pendingSearch.clear();
    }
    return outcome;
  }

  private writeOne(entry: TerminatedEntry): WriteOutcome {
    const now = this.now();
    const old = this.statements.byChannel.get(entry.channel_id) as StoredRow | undefined;
    if (!old) {
      const titleTokens = this.insert(entry, this.freeKey(entry.terminated_ms), now);
      this.statements.countDay.run(dayOfMs(entry.terminated_ms), 1);
      this.statements.countChannels.run(1, titleTokens);
      return 'loaded';
    }
    const merged = mergeEntries(entryOf(old), entry);
    this.remove(old.idx);
    const key = merged.terminated_ms === old.terminated_ms ? old.idx : this.freeKey(merged.terminated_ms);
    const titleTokens = this.insert(merged, key, old.recorded_ms, now);
    const [oldDay, newDay] = [dayOfMs(old.terminated_ms), dayOfMs(merged.terminated_ms)];
    if (oldDay !== newDay) {
      this.statements.countDay.run(oldDay, -1);
      this.statements.dropEmptyDay.run(oldDay);
      this.statements.countDay.run(newDay, 1);
    }
    this.statements.countChannels.run(0, titleTokens);
    return 'updated';
  }

  /** The first unused key of the channel's termination second, else of its day's overflow keys. */
  private freeKey(terminatedMs: number): number {
    const slots = keySlots(terminatedMs);
    for (const range of [slots.second, slots.overflow]) {
      const last = this.statements.lastKeyIn.get(range.from, range.to) as number | null;
      if (last === null) return range.from;
      if (last + 1 < range.to) return last + 1;
    }
    throw new RangeError(`No key is left for channels terminated on day ${dayOfMs(terminatedMs)}.`);
  }

  /** Writes the three rows of a channel under `key`; returns the words of its name. */
  private insert(entry: TerminatedEntry, key: number, recordedMs: number, updatedMs = recordedMs): number {
    const derived = derivedColumns(entry);
    this.statements.insertRow.run({
      idx: key,
      channel_id: entry.channel_id,
      title: entry.title,
      language_code: entry.language_code,
      content_type: entry.content_type,
      low_quality: flag(entry.low_quality),
      first_upload_day: entry.first_upload_day,
      terminated_day: derived.terminated_day,
      terminated_ms: entry.terminated_ms,
      subs_48h: entry.subs_48h,
      top_videos: derived.top_videos,
      thumbnail_url: entry.thumbnail_url,
      recorded_ms: recordedMs,
      updated_ms: updatedMs,
    });
    this.statements.insertFacts.run({
      idx: key,
      subs: entry.subscribers,
      views: entry.total_views,
      avg_views: derived.avg_views,
      videos: entry.video_count,
      age: derived.age,
      language: entry.language_code,
      monetized: flag(entry.monetized),
      views_24h: entry.views_24h,
      subs_24h: entry.subs_24h,
      views_48h: entry.views_48h,
      title_tokens: derived.title_tokens,
    });
    const videoTitles = entry.top_videos.map((video) => video.title).join('\n');
    this.pendingSearch.set(key, [searchableText(entry.title), searchableText(videoTitles), nameLengthToken(derived.title_tokens)]);
    return derived.title_tokens;
  }

  private remove(key: number): void {
    // Written earlier in this batch: not in the full-text index yet.
    if (!this.pendingSearch.delete(key)) this.statements.deleteSearch.run(BigInt(key));
    this.statements.deleteFacts.run(key);
    this.statements.deleteRow.run(key);
  }
}

/** The entry a stored row holds (what a merge starts from). */
export function entryOf(row: StoredRow): TerminatedEntry {
  const videos = JSON.parse(row.top_videos) as Array<[string, number, 'long' | 'short', string]>;
  return {
    channel_id: row.channel_id,
    title: row.title,
    terminated_ms: row.terminated_ms,
    language_code: row.language_code,
    content_type: row.content_type,
    low_quality: unflag(row.low_quality),
    monetized: unflag(row.monetized),
    first_upload_day: row.first_upload_day,
    subscribers: row.subs,
    total_views: row.views,
    video_count: row.videos,
    avg_views: row.avg_views,
    views_24h: row.views_24h,
    subs_24h: row.subs_24h,
    views_48h: row.views_48h,
    subs_48h: row.subs_48h,
    thumbnail_url: row.thumbnail_url,
    top_videos: videos.map(([title, views, kind, videoId]) => ({ video_id: videoId, title, views, kind })),
  };
}

/**
 * A batch as it is written: a channel met again in it is merged in its order first (as if written
 * one by one, `repeats` counting the extra records); then newest first, in key order, so each
 * table's pages are visited once.
 */
export function orderedBatch(entries: Iterable<TerminatedEntry>): Array<{ entry: TerminatedEntry; repeats: number }> {
  const batch = new Map<string, { entry: TerminatedEntry; repeats: number }>();
  for (const entry of entries) {
    const seen = batch.get(entry.channel_id);
    if (seen) {
      seen.entry = mergeEntries(seen.entry, entry);
      seen.repeats += 1;
    } else batch.set(entry.channel_id, { entry, repeats: 0 });
  }
  return [...batch.values()].sort((a, b) => b.entry.terminated_ms - a.entry.terminated_ms);
}

/** A stored channel recorded again (see the top of this file). */
export function mergeEntries(old: TerminatedEntry, next: TerminatedEntry): TerminatedEntry {
  const pick = <T>(value: T | null, kept: T | null): T | null => (value === null ? kept : value);
  const total_views = pick(next.total_views, old.total_views);
  const video_count = pick(next.video_count, old.video_count);
  return {
    channel_id: old.channel_id,
    title: next.title,
    terminated_ms: Math.min(old.terminated_ms, next.terminated_ms),
    language_code: pick(next.language_code, old.language_code),
    content_type: pick(next.content_type, old.content_type),
    low_quality: pick(next.low_quality, old.low_quality),
    monetized: pick(next.monetized, old.monetized),
    first_upload_day: pick(next.first_upload_day, old.first_upload_day),
    subscribers: pick(next.subscribers, old.subscribers),
    total_views,
    video_count,
    // A given average wins; else, when the new record brings views or videos, the merged figures' own.
    avg_views: next.avg_views ?? (next.total_views !== null || next.video_count !== null ? averageViews(total_views, video_count) : null) ?? old.avg_views,
    views_24h: pick(next.views_24h, old.views_24h),
    subs_24h: pick(next.subs_24h, old.subs_24h),
    views_48h: pick(next.views_48h, old.views_48h),
    subs_48h: pick(next.subs_48h, old.subs_48h),
    thumbnail_url: pick(next.thumbnail_url, old.thumbnail_url),
    top_videos: next.top_videos.length > 0 ? next.top_videos : old.top_videos,
  };
}
