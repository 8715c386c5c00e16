import type { CliApp } from './app.js';
import { usageError } from './errors.js';
import { parseWholeNumber } from './arguments.js';

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

/**
 * Every page of a listing, one call per page, up to the endpoint's last page (`--all`). Says on
 * stderr when the endpoint's page limit cut the listing short.
 */
export async function fetchAllPages<T>(
  app: CliApp,
  maxPage: number,
  fetchPage: (page: number) => Promise<{ total: number; items: T[] }>,
): Promise<{ total: number; items: T[] }> {
  const items: T[] = [];
  let total = 0;
  for (let page = 1; page <= maxPage; page += 1) {
    const body = await fetchPage(page);
    total = body.total;
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= total) break;
  }
  if (items.length < total) app.io.note(`Showing the first ${items.length} of ${total}: the service pages stop at page ${maxPage}.`);
  return { total, items };
}
