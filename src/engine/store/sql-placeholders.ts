/**
 * Rewrites `?` placeholders as Postgres's `$1, $2, …`, leaving question marks inside quoted
 * strings, quoted names and comments alone, so one SQL text serves both stores.
 */
const cache = new Map<string, string>();
const CACHE_MAX = 1_000;

export function numberedPlaceholders(sql: string): string {
  const known = cache.get(sql);
  if (known !== undefined) return known;
  let out = '';
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const char = sql[i]!;
    if (char === "'" || char === '"') {
      const end = closing(sql, i, char);
      out += sql.slice(i, end + 1);
      i = end;
    } else if (char === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length - 1 : end;
      out += sql.slice(i, stop + 1);
      i = stop;
    } else if (char === '?') {
      out += `$${++n}`;
    } else {
      out += char;
    }
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(sql, out);
  return out;
}

/** The index of the quote closing the one at `start` (a doubled quote is an escaped one). */
function closing(sql: string, start: number, quote: string): number {
  for (let i = start + 1; i < sql.length; i++) {
    if (sql[i] !== quote) continue;
    if (sql[i + 1] === quote) i++;
    else return i;
  }
  return sql.length - 1;
}
