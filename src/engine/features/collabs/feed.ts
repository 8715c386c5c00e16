/** `GET /api/collabs/feed`: collab videos the service knows, published in the last `days` days of world time. */
import { badRequest } from '../../../core/errors.js';
import { isChannelId } from '../../../core/channel-input.js';
import type { RequestContext } from '../../context.js';
import { ChannelNames, collabVideo, DAY_MS } from './shared.js';

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
  let listings = index.collabs.knownPublished(now - query.days * DAY_MS, now);
  if (query.channel_ids) {
    const wanted = new Set(query.channel_ids.map((id) => index.channels.byId(id)?.idx).filter((idx): idx is number => idx !== undefined));
    listings = listings.filter((listing) => listing.members.some((idx) => wanted.has(idx)));
  }
  if (query.sort === 'views') {
    const views = new Map(listings.map((listing) => [listing.video_id, index.collabs.views(listing, now)]));
    listings = [...listings].sort((a, b) => views.get(b.video_id)! - views.get(a.video_id)! || b.published_ms - a.published_ms);
  }
  const names = new ChannelNames(index.channels);
  const offset = (query.page - 1) * query.per_page;
  return {
    days: query.days,
    sort: query.sort,
    page: query.page,
    per_page: query.per_page,
    total: listings.length,
    videos: listings.slice(offset, offset + query.per_page).map((listing) => collabVideo(index, names, listing, now)),
  };
}
