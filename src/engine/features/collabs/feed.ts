/** `GET /api/collabs/feed`: collab videos the service knows, published in the last `days` days of world time. */
import { badRequest } from '../../../core/errors.js';
import { isChannelId } from '../../../core/channel-input.js';
import type { RequestContext } from '../../context.js';
import type { CollabListing } from '../../index/collab-graph.js';
import type { EngineIndex } from '../../index/engine-index.js';
import { collabVideo, DAY_MS } from './shared.js';

export interface FeedQuery {
  days: number;
  sort: 'newest' | 'views';
  channel_ids?: string[];
  page: number;
  per_page: number;
}

export async function collabFeed(request: RequestContext, query: FeedQuery) {
  const [platform, index] = await Promise.all([request.engine.platform(), request.engine.index()]);
  const now = platform.nowMs();
  const bad = query.channel_ids?.find((id) => !isChannelId(id));
  if (bad !== undefined) {
    throw badRequest(`Invalid request: channel_ids: "${bad}" is not a channel id (24 characters starting with UC).`, 'Resolve handles and URLs first with `tubekit resolve`.');
  }
  let listings = await windowInOrder(index, now, query.days, query.sort);
  if (query.channel_ids) {
    const known = await Promise.all(query.channel_ids.map((id) => index.channels.byId(id)));
    const wanted = new Set(known.map((channel) => channel?.idx).filter((idx): idx is number => idx !== undefined));
    listings = listings.filter((listing) => listing.members.some((idx) => wanted.has(idx)));
  }
  const offset = (query.page - 1) * query.per_page;
  return {
    days: query.days,
    sort: query.sort,
    page: query.page,
    per_page: query.per_page,
    total: listings.length,
    videos: await Promise.all(listings.slice(offset, offset + query.per_page).map((listing) => collabVideo(index, listing, now))),
  };
}

/**
 * Per index: the windows asked for at its current time, in each order (views move only with the
 * clock on the sample platform; on the live one with its reads, which move its revision).
 */
const windows = new WeakMap<EngineIndex, { now: number; revision: string | undefined; lists: Map<string, CollabListing[]> }>();

/** Known collab videos published in the last `days` days before `now`, in `sort` order. */
async function windowInOrder(index: EngineIndex, now: number, days: number, sort: FeedQuery['sort']): Promise<CollabListing[]> {
  let cached = windows.get(index);
  const revision = index.revision?.();
  if (cached?.now !== now || cached.revision !== revision) windows.set(index, (cached = { now, revision, lists: new Map() }));
  const key = `${days}:${sort}`;
  let listings = cached.lists.get(key);
  if (!listings) {
    listings = await index.collabs.knownPublished(now - days * DAY_MS, now);
    if (sort === 'views') {
      // A video whose views no read gave sorts after every counted one.
      const views = new Map<string, number>();
      for (const listing of listings) views.set(listing.video_id, (await index.collabs.views(listing, now)) ?? -1);
      listings = [...listings].sort((a, b) => views.get(b.video_id)! - views.get(a.video_id)! || b.published_ms - a.published_ms);
    }
    cached.lists.set(key, listings);
  }
  return listings;
}
