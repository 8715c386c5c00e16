/**
 * `GET /api/collabs/channel/:channel_id`: what the service knows of one channel's collabs. It knows
 * a collab video when one of its channels is scanned; a channel is `checked` when it is scanned
 * or listed on such a video — otherwise every list is empty and growth is null.
 */
import type { RequestContext } from '../../context.js';
import { refuseTerminated } from '../terminated/terminated-channel.js';
import { watchFields } from '../watch-fields.js';
import { currentGrowthRun, growthOf } from './growth-snapshot.js';
import { CollabNames, collabVideo, DAY_MS } from './shared.js';

export interface ChannelViewQuery {
  channel_id: string;
  since_days: number;
  limit: number;
}

export async function collabChannel(request: RequestContext, query: ChannelViewQuery) {
  const [platform, index] = await Promise.all([request.engine.platform(), request.engine.index()]);
  const now = platform.nowMs();
  const channel = await index.channels.byId(query.channel_id);
  if (!channel) await refuseTerminated(index.terminated, query.channel_id);
  const checked = channel !== null && (await index.collabs.isChecked(channel.idx, channel.collab_scanned, now));
  const listings = checked ? (await index.collabs.involving(channel.idx, now)).filter((listing) => listing.known) : [];
  const published = listings.filter((listing) => listing.published_ms <= now);
  const newSince = now - query.since_days * DAY_MS;

  const partners = new Map<number, { joint_videos: number; last_joint_ms: number }>();
  for (const listing of published) {
    for (const idx of listing.members) {
      if (idx === channel!.idx) continue;
      const entry = partners.get(idx) ?? { joint_videos: 0, last_joint_ms: 0 };
      entry.joint_videos += 1;
      entry.last_joint_ms = Math.max(entry.last_joint_ms, listing.published_ms);
      partners.set(idx, entry);
    }
  }
  const names = CollabNames.of(index);
  const ranked = [...partners].sort(([a, x], [b, y]) => y.joint_videos - x.joint_videos || y.last_joint_ms - x.last_joint_ms || a - b);

  let growth = null;
  if (checked) {
    const run = await currentGrowthRun(request.engine, index, now);
    const row = growthOf(request.engine, query.channel_id);
    if (row) {
      growth = {
        subs_7d: row.subs_7d,
        subs_30d: row.subs_30d,
        views_7d: row.views_7d,
        views_30d: row.views_30d,
        computed_at: new Date(run.computed_at_ms).toISOString().replace('.000Z', 'Z'),
        growth_through: run.growth_through,
      };
    }
  }

  const view = {
    channel_id: query.channel_id,
    handle: channel?.handle ?? null,
    title: channel?.title ?? null,
    checked,
    scanned: channel?.collab_scanned ?? false,
    has_new_collab: published.some((listing) => listing.published_ms > newSince),
    upcoming_collabs: listings.length - published.length,
    growth,
    total_partners: partners.size,
    total_videos: listings.length,
    partners: await Promise.all(ranked.slice(0, query.limit).map(async ([idx, entry]) => ({
      ...(await names.channel(idx)),
      joint_videos: entry.joint_videos,
      last_joint_at: new Date(entry.last_joint_ms).toISOString().replace('.000Z', 'Z'),
    }))),
    videos: await Promise.all(listings.slice(0, query.limit).map(async (listing) => ({
      ...(await collabVideo(index, listing, now)),
      is_new: listing.published_ms <= now && listing.published_ms > newSince,
    }))),
  };
  // Live: since when the channel's figures (and so its growth) have been watched.
  const { statistics } = index;
  return statistics.coverage ? { ...view, watched_since: watchFields(await statistics.coverage(query.channel_id)).watched_since } : view;
}
