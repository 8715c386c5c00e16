/**
 * The live store of terminated channels as the search reads it (reader.ts): ids and pictures read
 * back from the rows, the count and the longest name from the store's stats (read at each search:
 * another process may record channels while this one is open), and where a key falls in the
 * newest-first order from the channels per day.
 */
import type Database from 'better-sqlite3';
import { dayOfKey, dayOfMs } from './live-keys.js';
import { DAYS_TABLE, ensureLiveTerminatedTables, LIVE_LAYOUT, STATS_TABLE } from './live-schema.js';
import type { TerminatedNaming } from './naming.js';
import { TerminatedReader, type TerminatedSource } from './reader.js';

const { rows } = LIVE_LAYOUT;

/** The site's picture of a video, which its id names. */
export const videoThumbnailUrl = (videoId: string) => `https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`;

export function liveTerminatedNaming(db: Database.Database): TerminatedNaming {
  const channelId = db.prepare(`SELECT channel_id FROM ${rows} WHERE idx = ?`).pluck();
  const channelIdx = db.prepare(`SELECT idx FROM ${rows} WHERE channel_id = ?`).pluck();
  const videoId = db.prepare(`SELECT json_extract(top_videos, ?) FROM ${rows} WHERE idx = ?`).pluck();
  const thumbnail = db.prepare(`SELECT thumbnail_url FROM ${rows} WHERE channel_id = ?`).pluck();
  return {
    channelId: (idx) => channelId.get(idx) as string,
    channelIdx: (id) => (channelIdx.get(id) as number | undefined) ?? null,
    videoId: (idx, ordinal) => videoId.get(`$[${ordinal}][3]`, idx) as string,
    channelThumbnail: (id) => (thumbnail.get(id) as string | null | undefined) ?? null,
    videoThumbnail: videoThumbnailUrl,
  };
}

export function liveTerminatedSource(db: Database.Database, now: () => number): TerminatedSource {
  ensureLiveTerminatedTables(db);
  const stats = db.prepare(`SELECT count, longest_name FROM ${STATS_TABLE} WHERE id = 1`);
  const newerThan = db.prepare(`SELECT coalesce(sum(n), 0) FROM ${DAYS_TABLE} WHERE day > ?`).pluck();
  const onDay = db.prepare(`SELECT coalesce(max(n), 0) FROM ${DAYS_TABLE} WHERE day = ?`).pluck();
  const read = () => stats.get() as { count: number; longest_name: number };
  return {
    layout: LIVE_LAYOUT,
    naming: liveTerminatedNaming(db),
    today: () => dayOfMs(now()),
    count: () => read().count,
    longestName: () => read().longest_name,
    // The channels of later days, and half of its own day's (within a day, keys are not counted).
    placeOf: (idx) => {
      const day = dayOfKey(idx);
      return (newerThan.get(day) as number) + Math.floor((onDay.get(day) as number) / 2);
    },
    dense: false,
  };
}

/** The search over a live data dir's terminated channels; `now` is the engine's clock (terminated_days_ago counts from its day). */
export function openLiveTerminated(db: Database.Database, now: () => number): TerminatedReader {
  return new TerminatedReader(db, liveTerminatedSource(db, now));
}
