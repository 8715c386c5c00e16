/**
 * The one rule every read of the site follows: it ends as found, as "the site says this does not
 * exist", as refused (429, bot check, sign-in: raised by live-fetch.ts) or as failed. Only the site's
 * own words say something does not exist — InnerTube's structured NOT_FOUND answer to the resolver
 * or to a channel page here; the player's playabilityStatus and a channel page's alert in their
 * parsers. A bare HTTP 404, or a NOT_FOUND of a tab, a continuation or a player, is a page that
 * could not be read (a changed endpoint, a region block), never an empty answer.
 */
import type { ServiceError } from '../../../core/errors.js';
import { platformHttpError } from './errors.js';

/** What an answered request (one that was not refused) means. */
export type ReadVerdict = { kind: 'found' } | { kind: 'absent' } | { kind: 'failed'; error: ServiceError };

/** The resolver's own answer for a URL that names nothing: `{"error": {"status": "NOT_FOUND"}}`. */
function saysNotFound(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: { status?: unknown; code?: unknown } };
    return parsed?.error?.status === 'NOT_FOUND' && (parsed.error.code === undefined || parsed.error.code === 404);
  } catch {
    return false;
  }
}

/** Whether a NOT_FOUND answer to this request says the thing asked for does not exist: a URL to resolve, a channel's page. */
function askedForExistence(endpoint: string, fields: Record<string, unknown>): boolean {
  const path = endpoint.replace(/^\//, '');
  if (path === 'navigation/resolve_url') return true;
  return path === 'browse' && typeof fields.browseId === 'string' && fields.params === undefined && fields.continuation === undefined;
}

/** The verdict of an InnerTube answer, by the request's fields, the status and body; `request` names it in errors. */
export function innertubeVerdict(endpoint: string, fields: Record<string, unknown>, status: number, body: string, request: string): ReadVerdict {
  if (status >= 200 && status < 300) return { kind: 'found' };
  if (status === 404 && askedForExistence(endpoint, fields) && saysNotFound(body)) return { kind: 'absent' };
  return { kind: 'failed', error: platformHttpError(request, status) };
}

/** A plain GET (a caption track): found on 2xx, failed otherwise — a missing track is never "no captions". */
export function fileVerdict(status: number, request: string): ReadVerdict {
  if (status >= 200 && status < 300) return { kind: 'found' };
  return { kind: 'failed', error: platformHttpError(request, status) };
}
