/**
 * The SQL of a terminated-channel search. Two ways to find a page:
 *
 *  - keyword first (the usual one): the full-text index yields the matching channels in
 *    termination order, each joins its facts row by primary key, the filters drop rows, and the
 *    sort keeps the best `offset + limit` (SQLite's bounded sorter). "Newest first" needs no sort
 *    at all: the index already yields that order, so the page ends after `offset + limit` matches.
 *  - sort index first (a keyword that matches a large share of channels, sorted by a number): the
 *    facts index of the sort field is walked in order and each channel is checked against the
 *    keywords, until the page is full. Cheap when most channels match; see reader.ts for when.
 *
 * The total is a count over the full-text matches alone when no filter reads the facts table.
 */
import { FACT_INDEXES, type IndexedFact, type TerminatedLayout } from './schema.js';
import type { SearchKeyword } from './search-text.js';
import { anyKeywordQuery, inNameQuery } from './search-text.js';
import { similaritySql } from './similarity.js';

export type RangeField = 'subs' | 'views' | 'avg_views' | 'age' | 'videos' | 'views_24h' | 'views_48h';
export type SortField = 'subs' | 'views' | 'videos' | 'age' | 'views_24h' | 'subs_24h' | 'views_48h' | 'date' | 'similarity';
export type SortDirection = 'asc' | 'desc';

export interface TerminatedQuery {
  /** At least one; a channel matches when any of them does. */
  keywords: readonly SearchKeyword[];
  /** Language codes; any of them. */
  languages?: readonly string[];
  monetized?: boolean;
  /** Inclusive bounds. */
  ranges?: Partial<Record<RangeField, { min?: number; max?: number }>>;
  sort: SortField;
  direction: SortDirection;
  offset: number;
  limit: number;
}

export type Params = Record<string, string | number | bigint>;

export interface Filters {
  /** `AND …` conditions on facts row `f`, or '' when none. */
  sql: string;
  params: Params;
}

export function filtersOf(query: TerminatedQuery): Filters {
  const clauses: string[] = [];
  const params: Params = {};
  for (const [field, bounds] of Object.entries(query.ranges ?? {}) as Array<[RangeField, { min?: number; max?: number }]>) {
    if (bounds.min !== undefined) {
      clauses.push(`f.${field} >= @min_${field}`);
      params[`min_${field}`] = bounds.min;
    }
    if (bounds.max !== undefined) {
      clauses.push(`f.${field} <= @max_${field}`);
      params[`max_${field}`] = bounds.max;
    }
  }
  if (query.languages?.length) {
    clauses.push('f.language IN (SELECT value FROM json_each(@languages))');
    params.languages = JSON.stringify(query.languages);
  }
  if (query.monetized !== undefined) {
    clauses.push('f.monetized = @monetized');
    params.monetized = query.monetized ? 1 : 0;
  }
  return { sql: clauses.map((clause) => ` AND ${clause}`).join(''), params };
}

/** Parameters naming the keywords: the whole query, and each keyword in the name or anywhere. */
export function keywordParams(keywords: readonly SearchKeyword[]): Params {
  const params: Params = { match: anyKeywordQuery(keywords) };
  keywords.forEach((keyword, k) => {
    params[`name_${k}`] = inNameQuery(keyword);
    params[`any_${k}`] = anyKeywordQuery([keyword]);
  });
  return params;
}

/** Whether a sort can walk a facts index (every layout indexes the same fields). */
export function sortIndexOf(query: TerminatedQuery): IndexedFact | null {
  return query.sort in FACT_INDEXES ? (query.sort as IndexedFact) : null;
}

/** The statements of a search over one layout's tables (the sample world's, or a live store's). */
export class TerminatedSql {
  /** Every channel matching the keywords, in termination order. */
  readonly matchIds: string;
  /** Part of a full-text query's matches, in termination order (similarity tiers). */
  readonly tierIds: string;
  readonly tierCount: string;
  /** Whether channel @rowid matches a full-text query (bind the rowid as a BigInt: FTS5 ignores a REAL). */
  readonly probe: string;
  /** The `OFFSET`-th match in termination order: tells how dense a keyword is. */
  readonly nthMatch: string;
  /** Everything a result shows, for a page of channels. */
  readonly pageRows: string;

  constructor(private readonly layout: TerminatedLayout) {
    const { rows, facts, search } = layout;
    this.matchIds = `SELECT rowid FROM ${search} WHERE ${search} MATCH @match`;
    this.tierIds = `SELECT rowid FROM ${search} WHERE ${search} MATCH @tier ORDER BY rowid LIMIT @limit OFFSET @offset`;
    this.tierCount = `SELECT count(*) FROM ${search} WHERE ${search} MATCH @tier`;
    this.probe = `SELECT 1 FROM ${search} WHERE ${search} MATCH @query AND rowid = @rowid`;
    this.nthMatch = `SELECT rowid FROM ${search} WHERE ${search} MATCH @match ORDER BY rowid LIMIT 1 OFFSET @nth`;
    this.pageRows = `SELECT t.idx, t.title, t.language_code, t.low_quality, t.first_upload_day, t.terminated_day, t.subs_48h, t.top_videos,
    f.subs, f.views, f.avg_views, f.videos, f.age, f.monetized, f.views_24h, f.subs_24h, f.views_48h, f.title_tokens
  FROM ${rows} t JOIN ${facts} f ON f.idx = t.idx WHERE t.idx IN (SELECT value FROM json_each(@ids))`;
  }

  private matchesIn(param: string): string {
    const { search } = this.layout;
    return `f.idx IN (SELECT rowid FROM ${search} WHERE ${search} MATCH @${param})`;
  }

  private orderBy(query: TerminatedQuery): string {
    const { sort, direction } = query;
    const dir = direction.toUpperCase();
    if (sort === 'date') return `s.rowid ${direction === 'desc' ? 'ASC' : 'DESC'}`;
    if (sort === 'similarity') return `similarity ${dir}, f.idx ASC`;
    return `f.${sort} ${dir}${this.layout.nullable.has(sort) && direction === 'asc' ? ' NULLS LAST' : ''}, f.idx ${dir}`;
  }

  /**
   * Keyword first: one page of idx (and the similarity when sorting by it). With `withTotal`, each
   * row also carries the number of all filtered matches: one pass instead of a second join for the
   * count, worth it when filters make the count join the facts anyway and the sort reads them all.
   */
  keywordFirstPage(query: TerminatedQuery, filters: Filters, options: { withTotal?: boolean } = {}): string {
    const { facts, search } = this.layout;
    const similarity =
      query.sort === 'similarity'
        ? `, ${similaritySql(query.keywords.map((keyword) => keyword.tokens), (k) => this.matchesIn(`name_${k}`), (k) => this.matchesIn(`any_${k}`))} AS similarity`
        : '';
    // CROSS JOIN keeps the full-text index as the outer loop whatever the planner guesses.
    const total = options.withTotal ? ', count(*) OVER () AS total' : '';
    return `SELECT f.idx AS idx${similarity}${total} FROM ${search} s CROSS JOIN ${facts} f ON f.idx = s.rowid
    WHERE s.${search} MATCH @match${filters.sql} ORDER BY ${this.orderBy(query)} LIMIT @limit OFFSET @offset`;
  }

  count(filters: Filters): string {
    const { facts, search } = this.layout;
    if (!filters.sql) return `SELECT count(*) FROM ${search} WHERE ${search} MATCH @match`;
    return `SELECT count(*) FROM ${search} s CROSS JOIN ${facts} f ON f.idx = s.rowid WHERE s.${search} MATCH @match${filters.sql}`;
  }

  /**
   * Sort index first: the channels that pass the filters, in the sort's order, as walks of the sort
   * field's index (the keywords are checked by the caller). Unknown values (NULL) sort first in an
   * index but go last in every answer: descending walks reach them last anyway; ascending ones walk
   * the known values, then the unknown ones.
   */
  sortWalks(query: TerminatedQuery, field: IndexedFact, filters: Filters): string[] {
    const index = `SELECT f.idx AS idx FROM ${this.layout.facts} f INDEXED BY ${this.layout.factIndexes[field]} WHERE 1`;
    const dir = query.direction.toUpperCase();
    if (query.direction === 'desc' || !this.layout.nullable.has(field)) {
      return [`${index}${filters.sql} ORDER BY f.${field} ${dir}, f.idx ${dir} LIMIT @walk`];
    }
    return [
      `${index} AND f.${field} IS NOT NULL${filters.sql} ORDER BY f.${field} ASC, f.idx ASC LIMIT @walk`,
      `${index} AND f.${field} IS NULL${filters.sql} ORDER BY f.idx ASC LIMIT @walk`,
    ];
  }
}
