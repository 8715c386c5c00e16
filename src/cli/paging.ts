import type { CliApp } from './app.js';
import { usageError } from '../core/client-errors.js';
import { parseWholeNumber } from './arguments.js';
import { printJson } from './output.js';

export interface PageOptions {
  page?: string;
  perPage?: string;
  all?: boolean;
}

/** `--page` / `--per-page` as numbers within the endpoint's bounds; `--all` takes neither page. */
export function pageInput(options: PageOptions, limits: { maxPage: number; maxPerPage: number }): { page?: number; per_page?: number } {
  if (options.all && options.page !== undefined) throw usageError('--all fetches every page: drop --page.');
  return {
    page: options.page === undefined ? undefined : parseWholeNumber(options.page, '--page', { min: 1, max: limits.maxPage }),
    // --all reads the biggest pages unless told otherwise: fewer calls, further before the page limit.
    per_page: options.perPage === undefined ? (options.all ? limits.maxPerPage : undefined) : parseWholeNumber(options.perPage, '--per-page', { min: 1, max: limits.maxPerPage }),
  };
}

/** A number field of a page body, or undefined: the spec shows few of them, so a server may leave any out. */
function numberField(body: object, name: string): number | undefined {
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'number' ? value : undefined;
}

/** A listing endpoint as a command prints it. */
export interface Listing<B extends object, T> {
  /** The body's field holding the rows: `channels`, `videos`. */
  key: string;
  /** The endpoint's last page. */
  maxPage: number;
  /** Rows asked per page (`per_page` sent), when the command sends one. */
  perPage?: number;
  /** Rows for a person: the table, then any note (`body` is the first page's). */
  print(rows: T[], body: B): void | Promise<void>;
}

const rowsOf = <T>(body: object, key: string): T[] => {
  const rows = (body as Record<string, unknown>)[key];
  return Array.isArray(rows) ? (rows as T[]) : [];
};

/**
 * Every page of a listing, one call per page, up to the endpoint's last page (`--all`). It stops
 * at an empty or short page, at `total` rows or at `total_pages` — whichever the server sends.
 * Says on stderr when the endpoint's page limit cut the listing short.
 */
export async function fetchAllPages<B extends object, T>(
  app: CliApp,
  listing: Pick<Listing<B, T>, 'key' | 'maxPage' | 'perPage'>,
  fetchPage: (page: number) => Promise<B>,
): Promise<{ first: B; rows: T[] }> {
  const rows: T[] = [];
  let first: B | undefined;
  let total: number | undefined;
  for (let page = 1; page <= listing.maxPage; page += 1) {
    const body = await fetchPage(page);
    first ??= body;
    const pageRows = rowsOf<T>(body, listing.key);
    rows.push(...pageRows);
    total = numberField(body, 'total') ?? total;
    const lastPage = numberField(body, 'total_pages');
    const size = numberField(body, 'per_page') ?? listing.perPage;
    const done =
      pageRows.length === 0 ||
      (total !== undefined && rows.length >= total) ||
      (lastPage !== undefined && page >= lastPage) ||
      (size !== undefined && pageRows.length < size);
    if (done) break;
  }
  if (total !== undefined && rows.length < total) {
    app.io.note(`Showing the first ${rows.length.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}: the service's pages stop at page ${listing.maxPage}; narrow the request to see the others.`);
  }
  return { first: first!, rows };
}

/**
 * One page, or every page with `--all`; printed for a person by `listing.print`, or as JSON. With
 * `--all --json` the pages make one body: the first page's fields with every row under
 * `listing.key`, and no `page`, `per_page` or `total_pages` (they describe one page). The same rule
 * for every paged command, so `--jq` and `jq` read `--all` as they read one page. Answers the rows.
 */
export async function printListing<B extends object, T>(
  app: CliApp,
  request: { all?: boolean; page?: number },
  fetchPage: (page: number | undefined) => Promise<B>,
  listing: Listing<B, T>,
): Promise<T[]> {
  if (!request.all) {
    const body = await fetchPage(request.page);
    await app.render(body, (b) => listing.print(rowsOf<T>(b, listing.key), b));
    return rowsOf<T>(body, listing.key);
  }
  const { first, rows } = await fetchAllPages<B, T>(app, listing, fetchPage);
  if (app.json) {
    const { page: _page, per_page: _perPage, total_pages: _totalPages, ...fields } = first as Record<string, unknown>;
    printJson(app.io, { ...fields, [listing.key]: rows });
  } else await listing.print(rows, first);
  return rows;
}
