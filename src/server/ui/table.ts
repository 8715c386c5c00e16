/** Server-side sorting and paging of dashboard tables: links carry the state, no script needed. */
import { html, type SafeHtml } from './html.js';

export interface SortState<F extends string> {
  field: F;
  dir: 'asc' | 'desc';
}

/** The sort a query asks for, when it names one of `fields`; otherwise the default. */
export function readSort<F extends string>(query: Record<string, unknown>, fields: readonly F[], fallback: SortState<F>): SortState<F> {
  const field = fields.find((name) => name === query.sort) ?? fallback.field;
  const dir = query.dir === 'asc' || query.dir === 'desc' ? query.dir : fallback.dir;
  return { field, dir };
}

/** A positive page number from the query (1 when absent or malformed). */
export function readPage(query: Record<string, unknown>): number {
  const page = Number(query.page);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export function href(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** A column header that sorts by its field; clicking the current one flips the direction. */
export function sortHeader<F extends string>(label: string, field: F, sort: SortState<F>, link: (sort: SortState<F>) => string, numeric = false): SafeHtml {
  const current = sort.field === field;
  const next: SortState<F> = { field, dir: current && sort.dir === 'desc' ? 'asc' : 'desc' };
  const state = current ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined;
  return html`<th scope="col"${numeric ? html` class="num"` : ''}${state ? html` aria-sort="${state}"` : ''}><a href="${link(next)}">${label}${current ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</a></th>`;
}

export function pager(page: number, pages: number, link: (page: number) => string): SafeHtml {
  if (pages <= 1) return html``;
  return html`<nav class="pager" aria-label="Pages">${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous</a>` : ''}<span>Page ${page} of ${pages}</span>${page < pages ? html`<a href="${link(page + 1)}" rel="next">Next</a>` : ''}</nav>`;
}

/** Sorts rows by a field, unknown (null) values last in both directions. */
export function sortRows<T, F extends string>(rows: readonly T[], sort: SortState<F>, value: (row: T, field: F) => number | string | null): T[] {
  const sign = sort.dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = value(a, sort.field);
    const right = value(b, sort.field);
    if (left === null || right === null) return left === right ? 0 : left === null ? 1 : -1;
    return (left < right ? -1 : left > right ? 1 : 0) * sign;
  });
}
