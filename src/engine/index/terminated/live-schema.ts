/**
 * The live platform's store of terminated channels: the shape of schema.ts (rows, narrow facts,
 * a full-text index whose rowid is the key), under names of its own, plus what a store that
 * learns one channel at a time needs:
 *
 *  - ids are stored (`channel_id`, the top videos' ids as a 4th element of each `top_videos`
 *    entry), since nothing derives them; so is the channel's picture when one was given;
 *  - every figure may be unknown (NULL): what the engine never read, and no import gave;
 *  - keys order rows by termination time (live-keys.ts), and the full-text index allows deletes
 *    (`contentless_delete`), so recording a channel again replaces its row;
 *  - `live_terminated_days` counts channels per termination day (where a key falls in the order,
 *    for the search planner) and `live_terminated_stats` the total and the longest name.
 *
 * The tables are made the first time a live data dir's terminated store is opened: a sample data
 * dir never has them.
 */
import type Database from 'better-sqlite3';
import type { TerminatedLayout } from './schema.js';

export const LIVE_LAYOUT: TerminatedLayout = {
  rows: 'live_terminated',
  facts: 'live_terminated_facts',
  search: 'live_terminated_search',
  factIndexes: {
    subs: 'live_terminated_facts_subs',
    views: 'live_terminated_facts_views',
    videos: 'live_terminated_facts_videos',
    age: 'live_terminated_facts_age',
    views_24h: 'live_terminated_facts_views_24h',
    subs_24h: 'live_terminated_facts_subs_24h',
    views_48h: 'live_terminated_facts_views_48h',
  },
  nullable: new Set(['subs', 'views', 'videos', 'age', 'views_24h', 'subs_24h', 'views_48h']),
};

export const DAYS_TABLE = 'live_terminated_days';
export const STATS_TABLE = 'live_terminated_stats';

const { rows, facts, search, factIndexes } = LIVE_LAYOUT;

const LIVE_DDL = `
CREATE TABLE ${rows} (
  idx              INTEGER PRIMARY KEY, -- live-keys.ts: ascending = newest first
  channel_id       TEXT NOT NULL UNIQUE,
  title            TEXT NOT NULL,       -- name at termination
  language_code    TEXT,
  content_type     TEXT,                -- longform | shorts | mixed
  low_quality      INTEGER,
  first_upload_day INTEGER,             -- day number (days since 1970-01-01)
  terminated_day   INTEGER NOT NULL,
  terminated_ms    INTEGER NOT NULL,    -- when it was terminated (or first seen so), ms since 1970
  subs_48h         INTEGER,
  top_videos       TEXT NOT NULL,       -- JSON [[title, views, "long"|"short", video_id], …], most viewed first
  thumbnail_url    TEXT,
  recorded_ms      INTEGER NOT NULL,    -- first recorded
  updated_ms       INTEGER NOT NULL     -- last recorded
);
CREATE TABLE ${facts} (
  idx          INTEGER PRIMARY KEY,
  subs         INTEGER,
  views        INTEGER,
  avg_views    INTEGER,
  videos       INTEGER,
  age          INTEGER,                 -- days from first upload to termination
  language     TEXT,
  monetized    INTEGER,
  views_24h    INTEGER,
  subs_24h     INTEGER,
  views_48h    INTEGER,
  title_tokens INTEGER NOT NULL
);
CREATE VIRTUAL TABLE ${search} USING fts5(
  title, videos, meta, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
);
${Object.entries(factIndexes)
  .map(([column, index]) => `CREATE INDEX ${index} ON ${facts}(${column});`)
  .join('\n')}
CREATE TABLE ${DAYS_TABLE} (day INTEGER PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE ${STATS_TABLE} (
  id           INTEGER PRIMARY KEY CHECK (id = 1),
  version      INTEGER NOT NULL,
  count        INTEGER NOT NULL,
  longest_name INTEGER NOT NULL
);
INSERT INTO ${STATS_TABLE} (id, version, count, longest_name) VALUES (1, 1, 0, 0);`;

const ready = new WeakSet<Database.Database>();

/** Makes the store's tables unless they exist (once per connection; safe when several processes race). */
export function ensureLiveTerminatedTables(db: Database.Database): void {
  if (ready.has(db)) return;
  if (!liveTerminatedTablesExist(db)) {
    db.transaction(() => {
      if (!liveTerminatedTablesExist(db)) db.exec(LIVE_DDL);
    }).immediate();
  }
  ready.add(db);
}

/** Whether the store's tables exist (they are made on first use). */
export function liveTerminatedTablesExist(db: Database.Database): boolean {
  return ready.has(db) || db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').get('table', STATS_TABLE) !== undefined;
}

/** Whether the data dir holds terminated channels of the live platform (without making the tables). */
export function liveTerminatedHoldsData(db: Database.Database): boolean {
  return liveTerminatedTablesExist(db) && (db.prepare(`SELECT count FROM ${STATS_TABLE} WHERE id = 1`).pluck().get() as number) > 0;
}
