/**
 * The index's terminated channels: keyword search with filters, sorts, pages and the total, and
 * the plan behind it (for tests and benchmarks). It reads tables of the shape of schema.ts under
 * a layout's names: the sample world's (dense keys, every figure known) or the live store's
 * (live-*.ts: sparse keys, figures that may be unknown); how a row's ids and thumbnails are named
 * comes with them.
 */
import type Database from 'better-sqlite3';
import { dayToIso } from '../../dates.js';
import type { TerminatedNaming } from './naming.js';
import { filtersOf, keywordParams, sortIndexOf, TerminatedSql, type Filters, type Params, type TerminatedQuery } from './query-sql.js';
import { cheapestPlan, PLAN_COSTS_US, type SearchPlan } from './planner.js';
import { anyKeywordQuery, inNameOfLengthQuery, inNameQuery, notInNameQuery } from './search-text.js';
import { similarityScore } from './similarity.js';
import { StatementCache } from './statement-cache.js';
import type { TerminatedLayout, TopVideo } from './schema.js';

export type { RangeField, SortDirection, SortField, TerminatedQuery } from './query-sql.js';

export interface TerminatedVideo {
  video_id: string;
  title: string;
  views: number;
  kind: 'long' | 'short';
  thumbnail_url: string;
  url: string;
}

/**
 * A terminated channel as the platform last showed it, plus how well it matched the search. The
 * sample world knows every figure; a live store knows what it read or was given, and the rest is
 * null (never a guess).
 */
export interface TerminatedChannel {
  channel_id: string;
  title: string;
  language_code: string | null;
  subscribers: number | null;
  total_views: number | null;
  avg_views_per_video: number | null;
  video_count: number | null;
  monetized: boolean | null;
  low_quality: boolean | null;
  thumbnail_url: string | null;
  first_upload_date: string | null;
  terminated_date: string;
  terminated_days_ago: number;
  /** Days from first upload to termination. */
  age_days: number | null;
  views_24h: number | null;
  subs_24h: number | null;
  views_48h: number | null;
  subs_48h: number | null;
  similarity: number;
  top_videos: TerminatedVideo[];
}

export type { SearchPlan } from './planner.js';

export interface TerminatedSearchResult {
  total: number;
  channels: TerminatedChannel[];
  plan: SearchPlan;
}

/** Matches counted before judging how common the keywords are. */
const DENSITY_SAMPLE = 2000;

/**
 * The tables a reader searches and what it must know beside their rows. The sample world's keys
 * are exactly the places 0..count-1 in newest-first order; a live store's keys only order its rows
 * (live-keys.ts), so it says where a key falls.
 */
export interface TerminatedSource {
  layout: TerminatedLayout;
  naming: TerminatedNaming;
  /** Day number of "today" (terminated_days_ago counts from it). */
  today(): number;
  /** Terminated channels in the tables now (a live store grows while it is open). */
  count(): number;
  /** Words in the longest name (similarity tiers go up to it). */
  longestName(): number;
  /** Channels newer than the one with this key: its place in newest-first order, estimated where keys are not places. */
  placeOf(idx: number): number;
  /** Keys are the places 0..count-1 (so a byte array indexed by key can mark a set of channels). */
  dense: boolean;
}

/** A seed's terminated database (the sample world's): dense keys, a fixed count. */
export function denseSource(layout: TerminatedLayout, seed: { naming: TerminatedNaming; today(): number; count: number; longestName: number }): TerminatedSource {
  return {
    layout,
    naming: seed.naming,
    today: seed.today,
    count: () => seed.count,
    longestName: () => seed.longestName,
    placeOf: (idx) => idx,
    dense: true,
  };
}

/** The figures of a channel's row both stores read a page from. */
export interface PageRow {
  idx: number;
  title: string;
  language_code: string | null;
  low_quality: number | null;
  first_upload_day: number | null;
  terminated_day: number;
  subs_48h: number | null;
  top_videos: string;
  subs: number | null;
  views: number | null;
  avg_views: number | null;
  videos: number | null;
  age: number | null;
  monetized: number | null;
  views_24h: number | null;
  subs_24h: number | null;
  views_48h: number | null;
  title_tokens: number;
}

export class TerminatedReader {
  private readonly statements: StatementCache;
  private readonly sql: TerminatedSql;
  private readonly naming: TerminatedNaming;

  constructor(
    db: Database.Database,
    private readonly source: TerminatedSource,
  ) {
    this.statements = new StatementCache(db);
    this.sql = new TerminatedSql(source.layout);
    this.naming = source.naming;
  }

  /** Terminated channels in the tables. */
  get count(): number {
    return this.source.count();
  }

  /** `plan` forces a plan (tests and benchmarks compare them); by default the cheapest is chosen. */
  search(query: TerminatedQuery, options: { plan?: SearchPlan } = {}): TerminatedSearchResult {
    const filters = filtersOf(query);
    const params: Params = { ...keywordParams(query.keywords), ...filters.params, limit: query.limit, offset: query.offset };
    const count = () => this.statements.get(this.sql.count(filters)).pluck().get(params) as number;
    const channels = this.source.count();
    // A forced plan is not capped: as if the keywords matched without end.
    const { plan, matches } = options.plan ? { plan: options.plan, matches: Number.MAX_SAFE_INTEGER } : this.choosePlan(query, filters, params, channels);
    const byIndex =
      plan === 'similarity-tiers' ? this.similarityTiers(query) : plan === 'keyword-first' ? null : this.sortIndexFirst(query, filters, params, plan, matches, channels);
    if (byIndex) return { total: count(), channels: this.load(byIndex, query), plan };
    // With filters the count joins every match to its facts anyway: count while sorting instead.
    // (Newest first stops after the page, so there the separate count is cheaper.)
    const withTotal = filters.sql !== '' && query.sort !== 'date';
    const page = this.keywordFirst(query, filters, params, withTotal);
    const total = withTotal && page.length > 0 ? page[0]!.total! : count();
    return { total, channels: this.load(page, query), plan: 'keyword-first' };
  }

  /**
   * One terminated channel by id, without a search: the naming gives its key (the sample world
   * decodes the id, a live store looks it up), so an id of a live channel or of no channel is null
   * at once. Its similarity is 0: no keyword was given.
   */
  byId(channelId: string): TerminatedChannel | null {
    const idx = this.naming.channelIdx(channelId);
    if (idx === null || (this.source.dense && (idx < 0 || idx >= this.source.count()))) return null;
    const row = this.statements.get(this.sql.pageRows).get({ ids: JSON.stringify([idx]) }) as PageRow | undefined;
    return row ? this.channelOf(row, 0) : null;
  }

  /** EXPLAIN QUERY PLAN of the statements a search would run, by plan. */
  explain(query: TerminatedQuery): { keywordFirst: string[]; keywordFirstWithTotal: string[]; count: string[]; sortWalks: string[][] | null } {
    const filters = filtersOf(query);
    const params: Params = { ...keywordParams(query.keywords), ...filters.params, limit: query.limit, offset: query.offset, walk: 1 };
    const plan = (sql: string) =>
      (this.statements.get(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((row) => row.detail);
    const field = sortIndexOf(query);
    return {
      keywordFirst: plan(this.sql.keywordFirstPage(query, filters)),
      keywordFirstWithTotal: plan(this.sql.keywordFirstPage(query, filters, { withTotal: true })),
      count: plan(this.sql.count(filters)),
      sortWalks: field ? this.sql.sortWalks(query, field, filters).map(plan) : null,
    };
  }

  private keywordFirst(query: TerminatedQuery, filters: Filters, params: Params, withTotal: boolean): Array<{ idx: number; total?: number }> {
    return this.statements.get(this.sql.keywordFirstPage(query, filters, { withTotal })).all(params) as Array<{ idx: number; total?: number }>;
  }

  /**
   * Keyword first unless the sort has an index, no filter reads the facts, and the keywords match
   * so many channels that walking the sort index is cheaper (planner.ts). How many they match is
   * read off where the 2000th match falls in termination order, which costs a few thousand steps
   * of the full-text index whatever the keyword.
   */
  private choosePlan(query: TerminatedQuery, filters: Filters, params: Params, channels: number): { plan: SearchPlan; matches: number } {
    const keywordFirst = { plan: 'keyword-first' as const, matches: 0 };
    if (filters.sql !== '' || channels === 0) return keywordFirst;
    if (query.sort === 'similarity') return query.keywords.length === 1 ? { plan: 'similarity-tiers', matches: 0 } : keywordFirst;
    if (!sortIndexOf(query)) return keywordFirst;
    const nth = this.statements.get(this.sql.nthMatch).pluck().get({ match: params.match, nth: DENSITY_SAMPLE - 1 }) as number | undefined;
    if (nth === undefined) return keywordFirst; // few matches: joining them all is cheap
    const matches = (DENSITY_SAMPLE * channels) / (this.source.placeOf(nth) + 1);
    return { plan: cheapestPlan({ matches, channels, wanted: query.offset + query.limit }), matches };
  }

  /**
   * The page by walking the sort field's index and keeping the channels that match the keywords.
   * Probing is capped at what the keyword-first plan would cost for `matches`, so a wrong guess
   * (keywords that shun the top of the order) costs at most about twice the usual: null when the
   * cap runs out.
   */
  private sortIndexFirst(
    query: TerminatedQuery,
    filters: Filters,
    params: Params,
    plan: SearchPlan,
    matches: number,
    channels: number,
  ): Array<{ idx: number }> | null {
    const field = sortIndexOf(query);
    if (!field) return null;
    const wanted = query.offset + query.limit;
    const walks = this.sql.sortWalks(query, field, filters).map((sql) => this.statements.get(sql).pluck());
    const found: Array<{ idx: number }> = [];
    if (plan === 'sort-index-match-set') {
      const matching = this.keySet(this.statements.get(this.sql.matchIds).pluck().all(params) as number[], channels);
      for (const walk of walks) {
        for (const idx of walk.iterate({ ...filters.params, walk: -1 }) as IterableIterator<number>) {
          if (!matching.has(idx)) continue;
          found.push({ idx });
          if (found.length === wanted) return found.slice(query.offset);
        }
      }
      return found.slice(query.offset);
    }
    // Probing: each channel is a full-text lookup, so the candidates are read first, within the cap.
    let budget = Math.max(1, Math.floor((matches * PLAN_COSTS_US.joinPerMatch) / PLAN_COSTS_US.probe));
    const probe = this.statements.get(this.sql.probe).pluck();
    for (const walk of walks) {
      const candidates = walk.all({ ...filters.params, walk: budget }) as number[];
      for (const idx of candidates) {
        if (probe.get({ query: params.match, rowid: BigInt(idx) }) === undefined) continue;
        found.push({ idx });
        if (found.length === wanted) return found.slice(query.offset);
      }
      if (candidates.length === budget) return null; // the cap ran out before the index did
      budget -= candidates.length;
    }
    return found.slice(query.offset);
  }

  /** A set of keys: a byte per channel where keys are places, else a Set (a live store's keys are sparse). */
  private keySet(keys: number[], channels: number): { has(idx: number): boolean } {
    if (!this.source.dense) return new Set(keys);
    const marked = new Uint8Array(channels);
    for (const idx of keys) marked[idx] = 1;
    return { has: (idx) => marked[idx] === 1 };
  }

  /**
   * One keyword by similarity (planner.ts): names holding it, shortest first (all names no longer
   * than the keyword score 100 together), then channels with it only in video titles; each tier in
   * termination order, so ties come newest first as in the keyword-first plan. Ascending reads
   * the tiers in reverse. A tier is only counted when the page starts beyond it.
   */
  private similarityTiers(query: TerminatedQuery): Array<{ idx: number }> | null {
    const keyword = query.keywords[0];
    if (query.keywords.length !== 1 || query.sort !== 'similarity' || !keyword) return null;
    const lengths = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
    const nameTiers = [
      inNameOfLengthQuery(keyword, lengths(1, keyword.tokens)),
      ...lengths(keyword.tokens + 1, this.source.longestName()).map((length) => inNameOfLengthQuery(keyword, [length])),
    ];
    const tiers = query.direction === 'desc' ? [...nameTiers, notInNameQuery(keyword)] : [notInNameQuery(keyword), ...nameTiers.reverse()];
    const ids = this.statements.get(this.sql.tierIds).pluck();
    const size = this.statements.get(this.sql.tierCount).pluck();
    const found: Array<{ idx: number }> = [];
    let skip = query.offset;
    for (const tier of tiers) {
      if (skip > 0) {
        const tierSize = size.get({ tier }) as number;
        if (tierSize <= skip) {
          skip -= tierSize;
          continue;
        }
      }
      for (const idx of ids.all({ tier, limit: query.limit - found.length, offset: skip }) as number[]) found.push({ idx });
      skip = 0;
      if (found.length === query.limit) break;
    }
    return found;
  }

  private load(page: Array<{ idx: number }>, query: TerminatedQuery): TerminatedChannel[] {
    if (page.length === 0) return [];
    const rows = this.statements.get(this.sql.pageRows).all({ ids: JSON.stringify(page.map((row) => row.idx)) }) as PageRow[];
    const byIdx = new Map(rows.map((row) => [row.idx, row]));
    const probe = this.statements.get(this.sql.probe).pluck();
    const has = (expression: string, idx: number) => probe.get({ query: expression, rowid: BigInt(idx) }) !== undefined;
    return page.map(({ idx }) => {
      const row = byIdx.get(idx)!;
      const similarity = similarityScore(
        query.keywords.map((keyword) => ({
          inName: has(inNameQuery(keyword), idx),
          inVideos: query.keywords.length === 1 || has(anyKeywordQuery([keyword]), idx),
          keywordTokens: keyword.tokens,
          nameTokens: row.title_tokens,
        })),
      );
      return this.channelOf(row, similarity);
    });
  }

  private channelOf(row: PageRow, similarity: number): TerminatedChannel {
    const channelId = this.naming.channelId(row.idx);
    const topVideos = (JSON.parse(row.top_videos) as TopVideo[]).map(([title, views, kind], ordinal) => {
      const videoId = this.naming.videoId(row.idx, ordinal);
      return terminatedVideoOf(videoId, title, views, kind, this.naming.videoThumbnail(videoId));
    });
    return terminatedChannelOf(row, { channelId, thumbnailUrl: this.naming.channelThumbnail(channelId), today: this.source.today(), similarity, topVideos });
  }
}

/** A search result's video, on either store. */
export function terminatedVideoOf(videoId: string, title: string, views: number, kind: 'long' | 'short', thumbnailUrl: string): TerminatedVideo {
  const url = kind === 'short' ? `https://www.youtube.com/shorts/${videoId}` : `https://www.youtube.com/watch?v=${videoId}`;
  return { video_id: videoId, title, views, kind, thumbnail_url: thumbnailUrl, url };
}

/** A search result from a row's figures, on either store; what names the channel comes from the store. */
export function terminatedChannelOf(
  row: PageRow,
  named: { channelId: string; thumbnailUrl: string | null; today: number; similarity: number; topVideos: TerminatedVideo[] },
): TerminatedChannel {
  return {
    channel_id: named.channelId,
    title: row.title,
    language_code: row.language_code,
    subscribers: row.subs,
    total_views: row.views,
    avg_views_per_video: row.avg_views,
    video_count: row.videos,
    monetized: row.monetized === null ? null : row.monetized === 1,
    low_quality: row.low_quality === null ? null : row.low_quality === 1,
    thumbnail_url: named.thumbnailUrl,
    first_upload_date: row.first_upload_day === null ? null : dayToIso(row.first_upload_day),
    terminated_date: dayToIso(row.terminated_day),
    terminated_days_ago: named.today - row.terminated_day,
    age_days: row.age,
    views_24h: row.views_24h,
    subs_24h: row.subs_24h,
    views_48h: row.views_48h,
    subs_48h: row.subs_48h,
    similarity: named.similarity,
    top_videos: named.topVideos,
  };
}
