/**
 * `tubekit api --paginate`: follows the pages of a listing, one body per page. Any body that has
 * a numeric `page` pages; the next one is asked for while the body says there is more —
 * `has_more`, else `total_pages`, else `total` against `per_page`, else a full page of items.
 */
import { ServiceError } from '../core/errors.js';

/** A runaway guard: no listing of the service has anywhere near this many pages. */
const MAX_PAGES = 1000;

type Body = Record<string, unknown>;

const numberField = (body: Body, name: string) => (typeof body[name] === 'number' ? (body[name] as number) : undefined);

/** Whether the page after `body` (page `page`) can hold anything. */
export function hasNextPage(body: Body, page: number): boolean {
  if (typeof body.has_more === 'boolean') return body.has_more;
  const totalPages = numberField(body, 'total_pages');
  if (totalPages !== undefined) return page < totalPages;
  const perPage = numberField(body, 'per_page');
  const total = numberField(body, 'total');
  if (total !== undefined && perPage !== undefined) return page * perPage < total;
  const lists = Object.values(body).filter(Array.isArray);
  if (lists.length === 0) return false;
  const longest = Math.max(...lists.map((list) => list.length));
  return perPage === undefined ? longest > 0 : longest >= perPage;
}

/**
 * Every page from `firstPage` on, handed to `emit` as it arrives. A body without a `page` number
 * is not a listing: it is emitted alone. When the service refuses a page past its last
 * (page limits below the total), the pages so far stand and `notice` says where it stopped.
 */
export async function followPages(
  fetchPage: (page: number) => Promise<unknown>,
  firstPage: number,
  emit: (body: unknown) => void,
  notice: (text: string) => void,
): Promise<void> {
  for (let page = firstPage; page < firstPage + MAX_PAGES; page += 1) {
    let body: unknown;
    try {
      body = await fetchPage(page);
    } catch (error) {
      if (page > firstPage && error instanceof ServiceError && error.status === 400 && /\bpage\b/.test(error.message)) {
        notice(`Stopped at page ${page - 1}: the service refused page ${page} (${error.message})`);
        return;
      }
      throw error;
    }
    emit(body);
    const record = (typeof body === 'object' && body !== null ? body : {}) as Body;
    if (numberField(record, 'page') === undefined || !hasNextPage(record, page)) return;
  }
  notice(`Stopped after ${MAX_PAGES} pages.`);
}
