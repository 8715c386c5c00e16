/**
 * The total of a search whose keywords are plain words, counted on the bits Postgres migration "terminated channels of the live platform, with their keyword search" keeps
 * (`live_terminated_word_bits`: per word held by 1,000 channels or more, and per mark of a
 * channel's filtered figures — language, monetized, the decade of each range figure — which
 * slots hold it), so that counting does not read every matching row's page (PostgreSQL 15.18's
 * bitmap heap scans no longer skip all-visible pages: half a second at a million channels).
 *
 * With C the channels holding a common word, R those holding only rarer words, E the language
 * and monetized filters, and per range filter i its exact rows A_i = F_i ∪ S_i (F_i: the decades
 * wholly inside the bounds, S_i: the rest, in the decades a bound cuts):
 *
 *   total = |C ∧ E ∧ ∏F_i|                                    bits, AND-ed and counted
 *         + Σ_i |C ∧ E ∧ S_i ∧ ∏_{j<i} F_j ∧ ∏_{j>i} A_j|     rows of a decade a bound cuts
 *         + |R ∧ ¬C ∧ E ∧ ∏A_i|                               rows of rarer words
 *
 * (disjoint parts). The last two are counted in the table, on the rows they name only: few
 * unless a bound cuts a decade most channels share.
 */
import type { SqlValue } from '../../../store/store.js';
import type { RangeField, TerminatedQuery } from '../reader.js';
import { anyWordTsquery } from './ts-text.js';

/** A decade of figures (live_terminated_decade): its name and its first and last values. */
interface Decade {
  name: string;
  lo: bigint;
  hi: bigint;
}

/** Every decade in ascending order: n18 … n0, 0, p0 … p18 (all of BIGINT). */
const DECADES: readonly Decade[] = (() => {
  const ten = (k: number) => 10n ** BigInt(k);
  const below = Array.from({ length: 19 }, (_, k): Decade => ({ name: `n${k}`, lo: -(ten(k + 1) - 1n), hi: -ten(k) })).reverse();
  const above = Array.from({ length: 19 }, (_, k): Decade => ({ name: `p${k}`, lo: ten(k), hi: ten(k + 1) - 1n }));
  return [...below, { name: '0', lo: 0n, hi: 0n }, ...above];
})();

/** Bounds beyond this are left to the table (figures are far smaller; bigint arithmetic stays exact). */
const LARGEST = 1e15;

/** Figures from the first decade's first value to the last's last, in SQL (open where they are BIGINT's ends). */
function between(field: RangeField, first: Decade, last: Decade): { sql: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  if (first !== DECADES[0]) {
    clauses.push(`f.${field} >= ?::bigint`);
    params.push(String(first.lo));
  }
  if (last !== DECADES.at(-1)) {
    clauses.push(`f.${field} <= ?::bigint`);
    params.push(String(last.hi));
  }
  return { sql: clauses.length === 0 ? `f.${field} IS NOT NULL` : `(${clauses.join(' AND ')})`, params };
}

export interface Word {
  word: string;
  channels: number;
  bitmapped: boolean;
}

/** One range filter: the exact condition, the decades wholly inside it, and whether a bound cuts a decade. */
interface RangePart {
  exact: { sql: string; params: SqlValue[] };
  full: { marks: string[]; sql: string; params: SqlValue[] } | null;
  cut: boolean;
}

/** A range's conditions on row `f`, appended to `clauses` and `params` (the page's filters and the totals' exact part). */
export function rangeClauses(field: string, bounds: { min?: number; max?: number }, clauses: string[], params: SqlValue[]): void {
  if (bounds.min !== undefined) {
    clauses.push(`f.${field} >= ?`);
    params.push(bounds.min);
  }
  if (bounds.max !== undefined) {
    clauses.push(`f.${field} <= ?`);
    params.push(bounds.max);
  }
}

/** `bounds` are whole numbers here: the search made them so (wholeBounds). */
function rangePart(field: RangeField, bounds: { min?: number; max?: number }): RangePart | null {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  rangeClauses(field, bounds, clauses, params);
  if (clauses.length === 0) return null;
  const lo = bounds.min === undefined ? null : BigInt(bounds.min);
  const hi = bounds.max === undefined ? null : BigInt(bounds.max);
  const inside = (decade: Decade) => (lo === null || decade.lo >= lo) && (hi === null || decade.hi <= hi);
  const touched = (decade: Decade) => (lo === null || decade.hi >= lo) && (hi === null || decade.lo <= hi);
  const full = DECADES.filter(inside);
  const cut = DECADES.some((decade) => touched(decade) && !inside(decade));
  return {
    exact: { sql: clauses.join(' AND '), params },
    full: full.length === 0 ? null : { marks: full.map((decade) => `=${field}:${decade.name}`), ...between(field, full[0]!, full.at(-1)!) },
    cut,
  };
}

/** Whether the bits can count this search's total (its bounds are whole-number figures of a sane size). */
export function countableOnBits(query: TerminatedQuery): boolean {
  return Object.values(query.ranges ?? {}).every(
    (bounds) => bounds === undefined || [bounds.min, bounds.max].every((bound) => bound === undefined || (Number.isFinite(bound) && Math.abs(bound) <= LARGEST)),
  );
}

/** The total's SQL (one statement) for a search for any of `words` (as live_terminated_words keeps them) with the query's filters. */
export function bitTotalSql(words: readonly Word[], query: TerminatedQuery): { sql: string; params: SqlValue[] } {
  const common = words.filter((word) => word.bitmapped).map((word) => word.word);
  const rare = words.filter((word) => !word.bitmapped && word.channels > 0).map((word) => word.word);
  const equal: { sql: string[]; params: SqlValue[]; marks: string[][] } = { sql: [], params: [], marks: [] };
  if (query.languages?.length) {
    equal.sql.push('f.language_code = ANY(?::text[])');
    equal.params.push(query.languages);
    equal.marks.push(query.languages.map((language) => `=language:${language}`));
  }
  if (query.monetized !== undefined) {
    equal.sql.push('f.monetized = ?');
    equal.params.push(query.monetized ? 1 : 0);
    equal.marks.push([`=monetized:${query.monetized ? 1 : 0}`]);
  }
  const ranges = (Object.entries(query.ranges ?? {}) as Array<[RangeField, { min?: number; max?: number }]>)
    .map(([field, bounds]) => rangePart(field, bounds))
    .filter((part): part is RangePart => part !== null);
  const parts: string[] = [];
  const params: SqlValue[] = [];
  /** A count in the table: rows matching `match` and every condition. */
  const rows = (conditions: Array<{ sql: string; params: SqlValue[] }>) => {
    parts.push(`(SELECT count(*) FROM live_terminated f WHERE ${conditions.map((condition) => condition.sql).join(' AND ')})`);
    for (const condition of conditions) params.push(...condition.params);
  };
  const equalCondition = equal.sql.map((sql, n) => ({ sql, params: [equal.params[n]!] }));
  if (common.length > 0) {
    const commonMatch = { sql: 'f.document @@ ?::tsquery', params: [anyWordTsquery(common)] };
    // C ∧ E ∧ ∏F_i on the bits (nothing when some range has no decade wholly inside it).
    if (ranges.every((range) => range.full !== null)) {
      const groups = [common, ...equal.marks, ...ranges.map((range) => range.full!.marks)];
      const group = (n: number) => `(SELECT b.chunk, bit_or(b.bits) AS bits FROM live_terminated_word_bits b WHERE b.word = ANY(?::text[]) GROUP BY b.chunk) g${n}`;
      const from = groups.map((_, n) => (n === 0 ? group(n) : `JOIN ${group(n)} USING (chunk)`)).join(' ');
      parts.push(`(SELECT coalesce(sum(bit_count(${groups.map((_, n) => `g${n}.bits`).join(' & ')})), 0)::bigint FROM ${from})`);
      params.push(...groups);
    }
    // Rows in a decade a bound cuts.
    ranges.forEach((range, i) => {
      if (!range.cut || ranges.slice(0, i).some((before) => before.full === null)) return;
      const sliver = range.full === null ? range.exact : { sql: `${range.exact.sql} AND NOT (${range.full.sql})`, params: [...range.exact.params, ...range.full.params] };
      rows([commonMatch, ...equalCondition, sliver, ...ranges.slice(0, i).map((before) => before.full!), ...ranges.slice(i + 1).map((after) => after.exact)]);
    });
  }
  if (rare.length > 0) {
    const rareMatch = { sql: 'f.document @@ ?::tsquery', params: [anyWordTsquery(rare)] };
    const notCommon = common.length > 0 ? [{ sql: 'NOT f.document @@ ?::tsquery', params: [anyWordTsquery(common)] as SqlValue[] }] : [];
    rows([rareMatch, ...notCommon, ...equalCondition, ...ranges.map((range) => range.exact)]);
  }
  return { sql: parts.length === 0 ? 'SELECT 0 AS n' : `SELECT ${parts.join(' + ')} AS n`, params };
}
