/**
 * Storage of terminated channels: three tables keyed by `idx`, the order of termination (0 = the
 * most recent), so "newest first" is simply rowid order everywhere.
 *
 *  - `world_terminated`: what a result shows and nothing searches (name, dates, top videos).
 *  - `world_terminated_facts`: the numbers filters and sorts read, narrow on purpose: a search
 *    visits one facts row per keyword match, and small rows keep that visit cheap at a million
 *    channels. One index per sort field.
 *  - `world_terminated_search`: contentless FTS5 over the channel name (`title`) and the titles of
 *    its top videos (`videos`); its rowid is `idx`. A third column, `meta`, holds the length of
 *    the name in words as one token (`namelen3`), so the similarity sort can read names by length
 *    from the index alone; searches never look in it.
 *
 * Channel ids, video ids and thumbnail URLs are not stored: whoever fills the tables names them
 * from `idx` (naming.ts; the sample world derives them from its seed, ids.ts).
 *
 * The tables keep their `world_` names: the sample world generates them with the rest of its
 * data, and a rebuild of the world (which drops every `world_*` table) starts them afresh.
 */

/** A top video as `top_videos` stores it. */
export type TopVideo = [title: string, views: number, kind: 'long' | 'short'];
export const TERMINATED_TABLE = 'world_terminated';
export const FACTS_TABLE = 'world_terminated_facts';
export const SEARCH_TABLE = 'world_terminated_search';

export const TERMINATED_DDL = `
CREATE TABLE ${TERMINATED_TABLE} (
  idx              INTEGER PRIMARY KEY, -- termination order, newest first
  title            TEXT NOT NULL,       -- name at termination
  language_code    TEXT NOT NULL,
  content_type     TEXT NOT NULL,       -- longform | shorts | mixed
  low_quality      INTEGER NOT NULL,
  first_upload_day INTEGER NOT NULL,    -- day number (days since 1970-01-01)
  terminated_day   INTEGER NOT NULL,
  subs_48h         INTEGER,             -- NULL when unknown
  top_videos       TEXT NOT NULL        -- JSON [[title, views, "long"|"short"], …], most viewed first
);
CREATE TABLE ${FACTS_TABLE} (
  idx          INTEGER PRIMARY KEY,
  subs         INTEGER NOT NULL,
  views        INTEGER NOT NULL,
  avg_views    INTEGER NOT NULL,
  videos       INTEGER NOT NULL,
  age          INTEGER NOT NULL,        -- days from first upload to termination
  language     TEXT NOT NULL,           -- language code
  monetized    INTEGER NOT NULL,
  views_24h    INTEGER,                 -- gains before termination; NULL when unknown
  subs_24h     INTEGER,
  views_48h    INTEGER,
  title_tokens INTEGER NOT NULL         -- words of the name, for the similarity score
);
CREATE VIRTUAL TABLE ${SEARCH_TABLE} USING fts5(
  title, videos, meta, content='', columnsize=0, tokenize='unicode61 remove_diacritics 2'
);`;

/**
 * Facts columns with an index: the sort fields (a sort walks its index when the keywords match a
 * large share of channels). Filters are checked on the facts row each match reaches by primary key.
 */
export const FACT_INDEXES = {
  subs: 'world_terminated_facts_subs',
  views: 'world_terminated_facts_views',
  videos: 'world_terminated_facts_videos',
  age: 'world_terminated_facts_age',
  views_24h: 'world_terminated_facts_views_24h',
  subs_24h: 'world_terminated_facts_subs_24h',
  views_48h: 'world_terminated_facts_views_48h',
} as const;

export type IndexedFact = keyof typeof FACT_INDEXES;

export const TERMINATED_INDEX_DDL = Object.entries(FACT_INDEXES)
  .map(([column, index]) => `CREATE INDEX ${index} ON ${FACTS_TABLE}(${column});`)
  .join('\n');

/**
 * Where a store of terminated channels keeps them, for the search (query-sql.ts, reader.ts): the
 * three tables of the shape above under names of its own, the index of each sort field, and
 * which sort fields may be unknown (NULL; they sort last in both directions).
 */
export interface TerminatedLayout {
  rows: string;
  facts: string;
  search: string;
  factIndexes: Readonly<Record<IndexedFact, string>>;
  nullable: ReadonlySet<string>;
}

/** The sample world's tables: only the gains before termination may be unknown. */
export const SAMPLE_LAYOUT: TerminatedLayout = {
  rows: TERMINATED_TABLE,
  facts: FACTS_TABLE,
  search: SEARCH_TABLE,
  factIndexes: FACT_INDEXES,
  nullable: new Set(['views_24h', 'subs_24h', 'views_48h']),
};
