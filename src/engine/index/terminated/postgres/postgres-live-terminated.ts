/**
 * The live store of terminated channels on a fleet's PostgreSQL (`live_terminated`, of Postgres migration "terminated channels of the live platform, with their keyword search"):
 * the same records, merges, keys and answers as the data dir's SQLite store (live-store.ts,
 * reader.ts), with the keywords matched by a `tsvector` document and its GIN index (ts-text.ts).
 *
 * Writes: a batch in one transaction under the `live-terminated` lock (keys are taken as the
 * highest in their second's range plus one, which two writers must not both take); stored
 * channels are read, merged, deleted and written again, everything with one statement each.
 * Searches: the matching page in SQL (a sort index walked or the GIN index read, as Postgres's
 * planner judges), its rows, and the total beside it.
 */
import type { SqlValue, Store, Transaction } from '../../../store/store.js';
import { dayOfMs, keySlots, type KeyRange } from '../live-keys.js';
import type { LiveTerminatedRepository } from '../live-repository.js';
import { derivedColumns, entryOf, flag, mergeEntries, orderedBatch, type StoredRow, type TerminatedEntry } from '../live-store.js';
import { videoThumbnailUrl } from '../live-source.js';
import { terminatedChannelOf, terminatedVideoOf, type TerminatedChannel, type TerminatedQuery, type TerminatedSearchResult } from '../reader.js';
import { NAME_POINTS, NAME_SHARE_POINTS, similarityScore, VIDEO_POINTS } from '../similarity.js';
import { bitTotalSql, countableOnBits, rangeClauses, type Word } from './bit-totals.js';
import { anyKeywordTsquery, documentOf, inNameTsquery, notInNameTsquery, plainWords } from './ts-text.js';

export const WRITE_LOCK = 'live-terminated';
const TABLE = 'live_terminated';

/** Columns written, with their array types for `unnest`. */
const COLUMNS: ReadonlyArray<[name: keyof Row, type: string]> = [
  ['idx', 'bigint'], ['channel_id', 'text'], ['title', 'text'], ['language_code', 'text'], ['content_type', 'text'],
  ['low_quality', 'int'], ['monetized', 'int'], ['first_upload_day', 'int'], ['terminated_day', 'int'], ['terminated_ms', 'bigint'],
  ['subs', 'bigint'], ['views', 'bigint'], ['avg_views', 'bigint'], ['videos', 'bigint'], ['age', 'int'],
  ['views_24h', 'bigint'], ['subs_24h', 'bigint'], ['views_48h', 'bigint'], ['subs_48h', 'bigint'], ['title_tokens', 'int'],
  ['top_videos', 'text'], ['thumbnail_url', 'text'], ['recorded_ms', 'bigint'], ['updated_ms', 'bigint'], ['document', 'tsvector'], ['slot', 'int'],
];
/** What a search reads of a row (everything but the document). */
const READ = COLUMNS.filter(([name]) => name !== 'document').map(([name]) => name).join(', ');

/** The one table's row: the stored row both stores read back, and what only this table keeps. */
interface Row extends StoredRow {
  terminated_day: number;
  age: number | null;
  title_tokens: number;
  updated_ms: number;
  document?: string;
  /** The channel's dense number (the words' bitmaps): a merged channel keeps its own, a new one takes the next. */
  slot?: number | null;
}

/** A channel's row under `key` (live-store.ts's insert, as one row). */
export function rowOf(entry: TerminatedEntry, key: number, recordedMs: number, updatedMs: number): Row {
  return {
    ...derivedColumns(entry),
    idx: key,
    channel_id: entry.channel_id,
    title: entry.title,
    language_code: entry.language_code,
    content_type: entry.content_type,
    low_quality: flag(entry.low_quality),
    monetized: flag(entry.monetized),
    first_upload_day: entry.first_upload_day,
    terminated_ms: entry.terminated_ms,
    subs: entry.subscribers,
    views: entry.total_views,
    videos: entry.video_count,
    views_24h: entry.views_24h,
    subs_24h: entry.subs_24h,
    views_48h: entry.views_48h,
    subs_48h: entry.subs_48h,
    thumbnail_url: entry.thumbnail_url,
    recorded_ms: recordedMs,
    updated_ms: updatedMs,
    document: documentOf(entry.title, entry.top_videos.map((video) => video.title)),
  };
}

/** Inserts rows with one statement: a column per array. */
export async function insertRows(tx: Pick<Transaction, 'run'>, rows: readonly Row[]): Promise<number> {
  if (rows.length === 0) return 0;
  const arrays = COLUMNS.map(([name]) => rows.map((row) => row[name] ?? null)) as unknown as SqlValue[];
  const names = COLUMNS.map(([name]) => name);
  const { changes } = await tx.run(
    `INSERT INTO ${TABLE} (${names.join(', ')})
     SELECT ${names.map((name) => (name === 'slot' ? `coalesce(slot, nextval('live_terminated_slots')::int)` : name)).join(', ')}
     FROM unnest(${COLUMNS.map(([, type]) => `?::${type}[]`).join(', ')}) AS u(${names.join(', ')})`,
    arrays,
  );
  return changes;
}

export class PostgresLiveTerminated implements LiveTerminatedRepository {
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  async write(entries: readonly TerminatedEntry[]): Promise<{ loaded: number; updated: number }> {
    const ordered = orderedBatch(entries);
    if (ordered.length === 0) return { loaded: 0, updated: 0 };
    return this.store.transaction(
      async (tx) => {
        const now = this.now();
        const stored = await tx.all<Row>(`SELECT ${READ} FROM ${TABLE} WHERE channel_id = ANY(?::text[])`, [ordered.map(({ entry }) => entry.channel_id)]);
        const old = new Map(stored.map((row) => [row.channel_id, row]));
        if (stored.length > 0) await tx.run(`DELETE FROM ${TABLE} WHERE idx = ANY(?::bigint[])`, [stored.map((row) => row.idx)]);
        const keys = new KeyAllocator(tx);
        await keys.prefetch(ordered.map(({ entry }) => entry.terminated_ms));
        const rows: Row[] = [];
        const outcome = { loaded: 0, updated: 0 };
        for (const { entry, repeats } of ordered) {
          outcome.updated += repeats;
          const before = old.get(entry.channel_id);
          if (!before) {
            rows.push(rowOf(entry, await keys.next(entry.terminated_ms), now, now));
            outcome.loaded += 1;
            continue;
          }
          const merged = mergeEntries(entryOf(before), entry);
          const key = merged.terminated_ms === before.terminated_ms ? before.idx : await keys.next(merged.terminated_ms);
          rows.push({ ...rowOf(merged, key, before.recorded_ms, now), slot: before.slot });
          outcome.updated += 1;
        }
        await insertRows(tx, rows);
        return outcome;
      },
      { locks: [WRITE_LOCK] },
    );
  }

  async known(channelIds: readonly string[]): Promise<Set<string>> {
    if (channelIds.length === 0) return new Set();
    const rows = await this.store.all<{ channel_id: string }>(`SELECT channel_id FROM ${TABLE} WHERE channel_id = ANY(?::text[])`, [channelIds]);
    return new Set(rows.map((row) => row.channel_id));
  }

  async count(): Promise<number> {
    return (await this.store.get<{ n: number }>(`SELECT count(*) AS n FROM ${TABLE}`))!.n;
  }

  async byId(channelId: string): Promise<TerminatedChannel | null> {
    const row = await this.store.get<Row>(`SELECT ${READ} FROM ${TABLE} WHERE channel_id = ?`, [channelId]);
    return row ? this.channelOf(row, 0) : null;
  }

  async search(asked: TerminatedQuery): Promise<TerminatedSearchResult> {
    const query = wholeBounds(asked);
    const match = anyKeywordTsquery(query.keywords);
    const filters = filtersOf(query);
    const words = countableOnBits(query) ? plainWords(query.keywords) : null;
    const [total, page] = await Promise.all([
      words !== null
        ? this.wordsTotal(words, query, filters)
        : this.store.get<{ n: number }>(`SELECT count(*) AS n FROM ${TABLE} f WHERE f.document @@ ?::tsquery${filters.sql}`, [match, ...filters.params]).then((row) => row!.n),
      this.page(query, match, filters),
    ]);
    return { total, channels: await this.load(page, query), plan: page.plan };
  }

  /**
   * The total of a search for plain words, without reading every matching row's page (see
   * bit-totals.ts): one word without filters is its count of channels, the rest is counted on the
   * words' and marks' bits.
   */
  private async wordsTotal(words: readonly string[], query: TerminatedQuery, filters: Filters): Promise<number> {
    const kept = await this.store.all<Word>('SELECT word, channels, bitmapped FROM live_terminated_words WHERE word = ANY(?::text[])', [words]);
    if (words.length === 1 && filters.sql === '') return Math.max(0, kept[0]?.channels ?? 0);
    const { sql, params } = bitTotalSql(kept, query);
    return Number((await this.store.get<{ n: number | string }>(sql, params))!.n);
  }

  /** The keys of the page, in order. */
  private async page(query: TerminatedQuery, match: string, filters: Filters): Promise<{ keys: number[]; plan: TerminatedSearchResult['plan'] }> {
    if (query.sort === 'similarity' && query.keywords.length === 1 && filters.sql === '') return { keys: await this.similarityTiers(query), plan: 'similarity-tiers' };
    const similarity = query.sort === 'similarity' ? `, ${similaritySql(query)} AS similarity` : '';
    const similarityParams = query.sort === 'similarity' ? similarityParamsOf(query) : [];
    const rows = await this.store.all<{ idx: number }>(
      `SELECT f.idx${similarity} FROM ${TABLE} f WHERE f.document @@ ?::tsquery${filters.sql} ORDER BY ${orderBy(query)} LIMIT ? OFFSET ?`,
      [...similarityParams, match, ...filters.params, query.limit, query.offset],
    );
    return { keys: rows.map((row) => row.idx), plan: 'keyword-first' };
  }

  /**
   * One keyword by similarity, as reader.ts reads it: names holding it, all names no longer than
   * the keyword together, then one name length at a time, then channels with it only in video
   * titles; each tier newest first. A tier is counted only when the page starts beyond it.
   */
  private async similarityTiers(query: TerminatedQuery): Promise<number[]> {
    const keyword = query.keywords[0]!;
    const longest = (await this.store.get<{ n: number | null }>(`SELECT max(title_tokens) AS n FROM ${TABLE}`))!.n ?? 0;
    const inName = inNameTsquery(keyword);
    type Tier = { where: string; params: SqlValue[] };
    const nameTiers: Tier[] = [{ where: 'f.title_tokens <= ? AND f.document @@ ?::tsquery', params: [keyword.tokens, inName] }];
    for (let length = keyword.tokens + 1; length <= longest; length++) nameTiers.push({ where: 'f.title_tokens = ? AND f.document @@ ?::tsquery', params: [length, inName] });
    const elsewhere: Tier = { where: 'f.document @@ ?::tsquery', params: [notInNameTsquery(keyword)] };
    const tiers = query.direction === 'desc' ? [...nameTiers, elsewhere] : [elsewhere, ...nameTiers.reverse()];
    const found: number[] = [];
    let skip = query.offset;
    for (const tier of tiers) {
      if (skip > 0) {
        const size = (await this.store.get<{ n: number }>(`SELECT count(*) AS n FROM ${TABLE} f WHERE ${tier.where}`, tier.params))!.n;
        if (size <= skip) {
          skip -= size;
          continue;
        }
      }
      const rows = await this.store.all<{ idx: number }>(`SELECT f.idx FROM ${TABLE} f WHERE ${tier.where} ORDER BY f.idx LIMIT ? OFFSET ?`, [
        ...tier.params,
        query.limit - found.length,
        skip,
      ]);
      found.push(...rows.map((row) => row.idx));
      skip = 0;
      if (found.length === query.limit) break;
    }
    return found;
  }

  /** The page's rows, each with how well it matched (similarity.ts). */
  private async load(page: { keys: number[] }, query: TerminatedQuery): Promise<TerminatedChannel[]> {
    if (page.keys.length === 0) return [];
    const flags = query.keywords.flatMap((keyword, k) => [`f.document @@ ?::tsquery AS name_${k}`, `f.document @@ ?::tsquery AS any_${k}`]);
    const flagParams = query.keywords.flatMap((keyword) => [inNameTsquery(keyword), anyKeywordTsquery([keyword])]);
    const rows = await this.store.all<Row & Record<string, unknown>>(`SELECT ${READ}, ${flags.join(', ')} FROM ${TABLE} f WHERE f.idx = ANY(?::bigint[])`, [
      ...flagParams,
      page.keys,
    ]);
    const byIdx = new Map(rows.map((row) => [row.idx, row]));
    return page.keys.map((idx) => {
      const row = byIdx.get(idx)!;
      const similarity = similarityScore(
        query.keywords.map((keyword, k) => ({
          inName: row[`name_${k}`] === true,
          inVideos: query.keywords.length === 1 || row[`any_${k}`] === true,
          keywordTokens: keyword.tokens,
          nameTokens: row.title_tokens,
        })),
      );
      return this.channelOf(row, similarity);
    });
  }

  private channelOf(row: Row, similarity: number): TerminatedChannel {
    const videos = JSON.parse(row.top_videos) as Array<[string, number, 'long' | 'short', string]>;
    const topVideos = videos.map(([title, views, kind, videoId]) => terminatedVideoOf(videoId, title, views, kind, videoThumbnailUrl(videoId)));
    return terminatedChannelOf(row, { channelId: row.channel_id, thumbnailUrl: row.thumbnail_url, today: dayOfMs(this.now()), similarity, topVideos });
  }
}

/**
 * Free keys, as live-store.ts takes them: the first unused of the channel's termination second,
 * else of its day's overflow keys. The highest key of each range is read once per batch.
 */
class KeyAllocator {
  private readonly last = new Map<number, number | null>();

  constructor(private readonly tx: Transaction) {}

  async next(terminatedMs: number): Promise<number> {
    const slots = keySlots(terminatedMs);
    for (const range of [slots.second, slots.overflow]) {
      const last = await this.lastIn(range);
      const key = last === null ? range.from : last + 1;
      if (key < range.to) {
        this.last.set(range.from, key);
        return key;
      }
    }
    throw new RangeError(`No key is left for channels terminated on day ${dayOfMs(terminatedMs)}.`);
  }

  /** Reads the highest key of each termination second at once (a batch of a million-line import has thousands). */
  async prefetch(terminatedMs: readonly number[]): Promise<void> {
    const ranges = new Map<number, KeyRange>();
    for (const ms of terminatedMs) {
      const { second } = keySlots(ms);
      if (!this.last.has(second.from)) ranges.set(second.from, second);
    }
    if (ranges.size === 0) return;
    const rows = await this.tx.all<{ lo: number; last: number | null }>(
      `SELECT r.lo, (SELECT max(idx) FROM ${TABLE} WHERE idx >= r.lo AND idx < r.hi) AS last FROM unnest(?::bigint[], ?::bigint[]) AS r(lo, hi)`,
      [[...ranges.values()].map((range) => range.from), [...ranges.values()].map((range) => range.to)],
    );
    for (const row of rows) this.last.set(row.lo, row.last);
  }

  private async lastIn(range: KeyRange): Promise<number | null> {
    if (!this.last.has(range.from)) {
      const row = await this.tx.get<{ last: number | null }>(`SELECT max(idx) AS last FROM ${TABLE} WHERE idx >= ? AND idx < ?`, [range.from, range.to]);
      this.last.set(range.from, row?.last ?? null);
    }
    return this.last.get(range.from)!;
  }
}

/**
 * Every range figure is a whole number, so a fractional bound means the whole one inside it (a
 * minimum rounded up, a maximum down): the same rows, in parameters the BIGINT columns take.
 */
function wholeBounds(query: TerminatedQuery): TerminatedQuery {
  if (!query.ranges) return query;
  const ranges = Object.fromEntries(
    Object.entries(query.ranges).map(([field, bounds]) => [
      field,
      bounds && { min: bounds.min === undefined ? undefined : Math.ceil(bounds.min), max: bounds.max === undefined ? undefined : Math.floor(bounds.max) },
    ]),
  );
  return { ...query, ranges };
}

interface Filters {
  sql: string;
  params: SqlValue[];
}

/** The filters as SQL on row `f` (query-sql.ts's, in Postgres's terms). */
function filtersOf(query: TerminatedQuery): Filters {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  for (const [field, bounds] of Object.entries(query.ranges ?? {}) as Array<[string, { min?: number; max?: number }]>) rangeClauses(field, bounds, clauses, params);
  if (query.languages?.length) {
    clauses.push('f.language_code = ANY(?::text[])');
    params.push(query.languages);
  }
  if (query.monetized !== undefined) {
    clauses.push('f.monetized = ?');
    params.push(query.monetized ? 1 : 0);
  }
  return { sql: clauses.map((clause) => ` AND ${clause}`).join(''), params };
}

/** The order of query-sql.ts: unknown figures last both ways, ties by key. */
function orderBy(query: TerminatedQuery): string {
  const { sort, direction } = query;
  const dir = direction.toUpperCase();
  if (sort === 'date') return `f.idx ${direction === 'desc' ? 'ASC' : 'DESC'}`;
  if (sort === 'similarity') return `similarity ${dir}, f.idx ASC`;
  return `f.${sort} ${dir} NULLS LAST, f.idx ${dir}`;
}

/** similarity.ts's score as SQL, computed in double precision as SQLite computes it (so ties fall alike). */
function similaritySql(query: TerminatedQuery): string {
  const single = query.keywords.length === 1;
  const terms = query.keywords.map((keyword) => {
    const share = `LEAST(1.0::float8, ${keyword.tokens}.0::float8 / GREATEST(1, f.title_tokens))`;
    const elsewhere = single ? `${VIDEO_POINTS}` : `CASE WHEN f.document @@ ?::tsquery THEN ${VIDEO_POINTS} ELSE 0 END`;
    return `(CASE WHEN f.document @@ ?::tsquery THEN ${NAME_POINTS} + ${NAME_SHARE_POINTS} * ${share} ELSE ${elsewhere} END)`;
  });
  return `((${terms.join(' + ')})::float8 / ${query.keywords.length}.0::float8)`;
}

/** The parameters of similaritySql, in its order. */
function similarityParamsOf(query: TerminatedQuery): SqlValue[] {
  const single = query.keywords.length === 1;
  return query.keywords.flatMap((keyword) => (single ? [inNameTsquery(keyword)] : [inNameTsquery(keyword), anyKeywordTsquery([keyword])]));
}
