/**
 * Read API of terminated channels (`SampleWorld.terminated`): keyword search with filters, sorts,
 * pages and the total, and the plan behind it (for tests and benchmarks).
 */
import type Database from 'better-sqlite3';
import { CHANNEL_THUMBNAIL_HOST } from '../channels.js';
import { dayToIso } from '../dates.js';
import { encodeChannelId, encodeVideoId, idKeys, type IdKeys } from '../ids.js';
import { VIDEO_THUMBNAIL_HOST } from '../videos.js';
import type { TopVideo } from './generate.js';
import {
  countSql,
  filtersOf,
  keywordFirstPageSql,
  keywordParams,
  nthMatchSql,
  NULLABLE_FIELDS,
  pageRowsSql,
  probeSql,
  sortIndexOf,
  sortWalkSql,
  type Filters,
  type Params,
  type TerminatedQuery,
} from './query-sql.js';
import { inColumnQuery } from './search-text.js';
import { similarityScore } from './similarity.js';
import { StatementCache } from './statement-cache.js';

export type { RangeField, SortDirection, SortField, TerminatedQuery } from './query-sql.js';

export interface TerminatedVideo {
  video_id: string;
  title: string;
  views: number;
  kind: 'long' | 'short';
  thumbnail_url: string;
  url: string;
}

/** A terminated channel as the platform last showed it, plus how well it matched the search. */
export interface TerminatedChannel {
  channel_id: string;
  title: string;
  language_code: string;
  subscribers: number;
  total_views: number;
  avg_views_per_video: number;
  video_count: number;
  monetized: boolean;
  low_quality: boolean;
  thumbnail_url: string;
  first_upload_date: string;
  terminated_date: string;
  terminated_days_ago: number;
  /** Days from first upload to termination. */
  age_days: number;
  views_24h: number | null;
  subs_24h: number | null;
  views_48h: number | null;
  subs_48h: number | null;
  similarity: number;
  top_videos: TerminatedVideo[];
}

/** How a page was found (see query-sql.ts). */
export type SearchPlan = 'keyword-first' | 'sort-index-first';

export interface TerminatedSearchResult {
  total: number;
  channels: TerminatedChannel[];
  plan: SearchPlan;
}

/** Matches counted before judging how common the keywords are. */
const DENSITY_SAMPLE = 2000;
/**
 * Rough costs in microseconds, measured at a million channels: joining one keyword match to its
 * facts row (and sorting it), and checking one channel against the keywords.
 */
const KEYWORD_MATCH_COST_US = 0.3;
const PROBE_COST_US = 15;

interface PageRow {
  idx: number;
  title: string;
  language_code: string;
  low_quality: number;
  first_upload_day: number;
  terminated_day: number;
  subs_48h: number | null;
  top_videos: string;
  subs: number;
  views: number;
  avg_views: number;
  videos: number;
  age: number;
  monetized: number;
  views_24h: number | null;
  subs_24h: number | null;
  views_48h: number | null;
  title_tokens: number;
}

export class TerminatedReader {
  private readonly statements: StatementCache;
  private readonly channelKeys: IdKeys;
  private readonly videoKeys: IdKeys;

  constructor(
    db: Database.Database,
    seed: string,
    /** Day number of the world's "today". */
    private readonly today: number,
    /** Terminated channels in the world. */
    readonly count: number,
  ) {
    this.statements = new StatementCache(db);
    this.channelKeys = idKeys(seed, 'terminated-channel');
    this.videoKeys = idKeys(seed, 'terminated-video');
  }

  /** `plan` forces a plan (tests and benchmarks compare them); by default the cheaper one is chosen. */
  search(query: TerminatedQuery, options: { plan?: SearchPlan } = {}): TerminatedSearchResult {
    const filters = filtersOf(query);
    const params: Params = { ...keywordParams(query.keywords), ...filters.params, limit: query.limit, offset: query.offset };
    const bySortIndex = options.plan === 'keyword-first' ? null : this.sortIndexFirst(query, filters, params, options.plan === 'sort-index-first');
    const page = bySortIndex ?? this.keywordFirst(query, filters, params);
    const total = this.statements.get(countSql(filters)).pluck().get(params) as number;
    return {
      total,
      channels: this.load(page.map((row) => row.idx), query, page),
      plan: bySortIndex ? 'sort-index-first' : 'keyword-first',
    };
  }

  /** EXPLAIN QUERY PLAN of the statements a search would run, by plan. */
  explain(query: TerminatedQuery): { keywordFirst: string[]; count: string[]; sortWalk: string[] | null } {
    const filters = filtersOf(query);
    const params: Params = { ...keywordParams(query.keywords), ...filters.params, limit: query.limit, offset: query.offset, walk: 1 };
    const plan = (sql: string) =>
      (this.statements.get(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((row) => row.detail);
    const field = sortIndexOf(query);
    return {
      keywordFirst: plan(keywordFirstPageSql(query, filters)),
      count: plan(countSql(filters)),
      sortWalk: field ? plan(sortWalkSql(query, field, filters)) : null,
    };
  }

  private keywordFirst(query: TerminatedQuery, filters: Filters, params: Params): Array<{ idx: number; similarity?: number }> {
    return this.statements.get(keywordFirstPageSql(query, filters)).all(params) as Array<{ idx: number; similarity?: number }>;
  }

  /**
   * The page by walking the sort field's index, when the keywords match so large a share of the
   * channels that a few checks fill the page sooner than joining every match would. The walk is
   * capped at what the keyword-first plan would cost, so a wrong guess (filters that thin the
   * matches out, keywords that shun the top of the order) costs at most twice the usual. Null
   * when not worth trying or when the cap ran out.
   */
  private sortIndexFirst(query: TerminatedQuery, filters: Filters, params: Params, forced: boolean): Array<{ idx: number }> | null {
    const field = sortIndexOf(query);
    if (!field || this.count === 0) return null;
    const wanted = query.offset + query.limit;
    let budget = this.count + 1;
    if (!forced) {
      const nth = this.statements.get(nthMatchSql).pluck().get({ match: params.match, nth: DENSITY_SAMPLE - 1 }) as number | undefined;
      if (nth === undefined) return null; // few matches: joining them all is cheap
      const share = DENSITY_SAMPLE / (nth + 1);
      budget = Math.floor((share * this.count * KEYWORD_MATCH_COST_US) / PROBE_COST_US);
      if ((wanted / share) * 2 > budget) return null;
    }
    const candidates = this.statements.get(sortWalkSql(query, field, filters)).pluck().all({ ...filters.params, walk: budget }) as number[];
    const probe = this.statements.get(probeSql).pluck();
    const found: Array<{ idx: number }> = [];
    for (const idx of candidates) {
      if (probe.get({ query: params.match, rowid: BigInt(idx) }) === undefined) continue;
      found.push({ idx });
      if (found.length === wanted) return found.slice(query.offset);
    }
    // The whole index was walked: the page is complete as it is (ascending walks skip unknown values, so not those).
    const exhausted = candidates.length < budget && !(query.direction === 'asc' && NULLABLE_FIELDS.has(field));
    if (forced && !exhausted) return null;
    return exhausted ? found.slice(query.offset) : null;
  }

  private load(ids: number[], query: TerminatedQuery, page: Array<{ idx: number; similarity?: number }>): TerminatedChannel[] {
    if (ids.length === 0) return [];
    const rows = this.statements.get(pageRowsSql).all({ ids: JSON.stringify(ids) }) as PageRow[];
    const byIdx = new Map(rows.map((row) => [row.idx, row]));
    const probe = this.statements.get(probeSql).pluck();
    const has = (expression: string, idx: number) => probe.get({ query: expression, rowid: BigInt(idx) }) !== undefined;
    return page.map(({ idx }) => {
      const row = byIdx.get(idx)!;
      const similarity = similarityScore(
        query.keywords.map((keyword) => ({
          inName: has(inColumnQuery('title', keyword), idx),
          inVideos: query.keywords.length === 1 || has(keyword.expression, idx),
          keywordTokens: keyword.tokens,
          nameTokens: row.title_tokens,
        })),
      );
      return this.channelOf(row, similarity);
    });
  }

  private channelOf(row: PageRow, similarity: number): TerminatedChannel {
    const channelId = encodeChannelId(this.channelKeys, row.idx);
    const topVideos = (JSON.parse(row.top_videos) as TopVideo[]).map(([title, views, kind], ordinal): TerminatedVideo => {
      const videoId = encodeVideoId(this.videoKeys, row.idx, ordinal);
      return {
        video_id: videoId,
        title,
        views,
        kind,
        thumbnail_url: `https://${VIDEO_THUMBNAIL_HOST}/vi/${videoId}/hqdefault.jpg`,
        url: kind === 'short' ? `https://www.youtube.com/shorts/${videoId}` : `https://www.youtube.com/watch?v=${videoId}`,
      };
    });
    return {
      channel_id: channelId,
      title: row.title,
      language_code: row.language_code,
      subscribers: row.subs,
      total_views: row.views,
      avg_views_per_video: row.avg_views,
      video_count: row.videos,
      monetized: row.monetized === 1,
      low_quality: row.low_quality === 1,
      thumbnail_url: `https://${CHANNEL_THUMBNAIL_HOST}/ch/${channelId}/s800.jpg`,
      first_upload_date: dayToIso(row.first_upload_day),
      terminated_date: dayToIso(row.terminated_day),
      terminated_days_ago: this.today - row.terminated_day,
      age_days: row.age,
      views_24h: row.views_24h,
      subs_24h: row.subs_24h,
      views_48h: row.views_48h,
      subs_48h: row.subs_48h,
      similarity,
      top_videos: topVideos,
    };
  }
}
