/**
 * The items of a channel tab (`lockupViewModel` videos, `shortsLockupViewModel` shorts, and the
 * older `videoRenderer`/`gridVideoRenderer`) and the token of the next page, from a tab's first
 * page (`richGridRenderer`) or a continuation (`appendContinuationItemsAction`).
 */
import { parseAgo, parseClock, parseCount } from './figures.js';
import { asString, at, findAll, findFirst, type Json, largestImage, textOf } from './json-walk.js';

export interface TabItem {
  videoId: string;
  title: string;
  kind: 'long' | 'short' | 'upcoming';
  live: boolean;
  /** null: the listing shows no view text, or one that could not be read. */
  views: number | null;
  /** null: the listing gives no length (Shorts, or a badge that is not a clock); 0 for upcoming. */
  durationSeconds: number | null;
  /** ms since the epoch: estimated from "3 days ago", or the scheduled start of an upcoming one; null when the listing says nothing. */
  publishedMs: number | null;
  thumbnailUrl: string;
}

export interface TabPage {
  items: TabItem[];
  continuation: string | null;
}

const SCHEDULED = /(?:scheduled for|premieres)\s+(\d{1,2})\/(\d{1,2})\/(\d{2,4}),?\s+(\d{1,2}):(\d{2})\s*([AP]M)/i;

function scheduledMs(texts: string[]): number | null {
  for (const text of texts) {
    const match = SCHEDULED.exec(text);
    if (!match) continue;
    const [, month, day, year, hour, minute, half] = match;
    const fullYear = year!.length === 2 ? 2000 + Number(year) : Number(year);
    const hours = (Number(hour) % 12) + (half!.toUpperCase() === 'PM' ? 12 : 0);
    return Date.UTC(fullYear, Number(month) - 1, Number(day), hours, Number(minute));
  }
  return null;
}

function fromLockup(lockup: Json, nowMs: number): TabItem | null {
  const videoId = asString(at(lockup, 'contentId'));
  const type = asString(at(lockup, 'contentType')) ?? '';
  if (!videoId || !/VIDEO|SHORT/.test(type)) return null;
  const metadata = at(lockup, 'metadata', 'lockupMetadataViewModel');
  const parts = findAll(at(metadata, 'metadata'), 'metadataParts').flatMap((list) => (Array.isArray(list) ? list.map((part) => textOf(at(part, 'text')) ?? '') : []));
  const badges = findAll(at(lockup, 'contentImage'), 'thumbnailBadgeViewModel').map((badge) => asString(at(badge, 'text')) ?? '');
  const scheduled = scheduledMs(parts);
  const upcoming = scheduled !== null || badges.some((text) => /upcoming/i.test(text));
  const live = badges.some((text) => /^live$/i.test(text));
  const duration = badges.map(parseClock).find((seconds) => seconds !== null) ?? null;
  return {
    videoId,
    title: textOf(at(metadata, 'title')) ?? '',
    kind: upcoming ? 'upcoming' : /SHORT/.test(type) ? 'short' : 'long',
    live,
    views: parseCount(parts.find((part) => /\bviews?\b|watching/i.test(part)))?.value ?? null,
    durationSeconds: upcoming ? 0 : duration,
    publishedMs: scheduled ?? parts.map((part) => parseAgo(part, nowMs)).find((ms) => ms !== null) ?? null,
    thumbnailUrl: largestImage(at(lockup, 'contentImage', 'thumbnailViewModel', 'image')),
  };
}

function fromShortsLockup(lockup: Json): TabItem | null {
  const videoId =
    asString(findFirst(at(lockup, 'onTap'), 'videoId')) ?? asString(at(lockup, 'entityId'))?.replace(/^shorts-shelf-item-/, '');
  if (!videoId) return null;
  return {
    videoId,
    title: textOf(at(lockup, 'overlayMetadata', 'primaryText')) ?? '',
    kind: 'short',
    live: false,
    views: parseCount(textOf(at(lockup, 'overlayMetadata', 'secondaryText')))?.value ?? null,
    durationSeconds: null,
    publishedMs: null,
    thumbnailUrl: largestImage(findFirst(at(lockup, 'thumbnailViewModel'), 'image')) || largestImage(findFirst(at(lockup, 'onTap'), 'thumbnail')),
  };
}

/** The older renderer some answers still carry. */
function fromVideoRenderer(renderer: Json, nowMs: number): TabItem | null {
  const videoId = asString(at(renderer, 'videoId'));
  if (!videoId) return null;
  const upcoming = at(renderer, 'upcomingEventData') !== undefined;
  const startTime = Number(asString(at(renderer, 'upcomingEventData', 'startTime')));
  return {
    videoId,
    title: textOf(at(renderer, 'title')) ?? '',
    kind: upcoming ? 'upcoming' : 'long',
    live: findAll(renderer, 'style').includes('LIVE'),
    views: parseCount(textOf(at(renderer, 'viewCountText')))?.value ?? null,
    durationSeconds: upcoming ? 0 : (parseClock(textOf(at(renderer, 'lengthText'))) ?? null),
    publishedMs: upcoming && startTime ? startTime * 1000 : parseAgo(textOf(at(renderer, 'publishedTimeText')), nowMs),
    thumbnailUrl: largestImage(at(renderer, 'thumbnail')),
  };
}

/** The listing part of a tab page or continuation; undefined when the answer has neither. */
function listingOf(response: Json): Json[] | undefined {
  const appended = findAll(at(response, 'onResponseReceivedActions'), 'continuationItems');
  if (appended.length) return appended.flatMap((items) => (Array.isArray(items) ? items : []));
  const grid = findFirst(at(response, 'contents'), 'richGridRenderer');
  if (grid) return (at(grid, 'contents') as Json[] | undefined) ?? [];
  return undefined;
}

export function parseTabPage(response: Json, nowMs: number): TabPage | null {
  const listing = listingOf(response);
  if (!listing) return null;
  const items: TabItem[] = [];
  let continuation: string | null = null;
  for (const entry of listing) {
    const token = asString(findFirst(at(entry, 'continuationItemRenderer'), 'token'));
    if (token) {
      continuation = token;
      continue;
    }
    const lockup = findFirst(entry, 'lockupViewModel');
    const shorts = lockup ? undefined : findFirst(entry, 'shortsLockupViewModel');
    const renderer = lockup || shorts ? undefined : (findFirst(entry, 'videoRenderer') ?? findFirst(entry, 'gridVideoRenderer'));
    const item = lockup ? fromLockup(lockup, nowMs) : shorts ? fromShortsLockup(shorts) : renderer ? fromVideoRenderer(renderer, nowMs) : null;
    if (item) items.push(item);
  }
  return { items, continuation };
}
