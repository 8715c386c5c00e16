/**
 * The collab graph of a live index: videos whose watch page lists several channels, as reads
 * found them. A listing is visible from when the engine first saw it, and *known* when one of its
 * channels was scanned by the refresh sweep (features/refresh/); its views are the latest read's.
 */
import type { Executor } from '../../store/store.js';
import type { CollabAggregate, CollabGraph, CollabListing, CollabSnapshot } from '../collab-graph.js';
import { CHANNEL_SQL, type ListingMemberRow } from './channel-rows.js';

/** A live listing carries the views its latest read found (null: none gave a count). */
export interface LiveCollabListing extends CollabListing {
  views: number | null;
}

/** Rows of (video, member), grouped by video in their order, into listings. */
function listingsOf(rows: Iterable<ListingMemberRow>): LiveCollabListing[] {
  const listings: LiveCollabListing[] = [];
  for (const row of rows) {
    const last = listings.at(-1);
    if (last?.video_id === row.video_id) {
      last.members.push(row.member);
      continue;
    }
    listings.push({
      video_id: row.video_id,
      host_idx: row.host_idx,
      kind: row.kind === 'short' ? 'short' : 'long',
      published_ms: row.published_ms,
      announced_ms: row.first_seen_ms,
      known: row.known === 1,
      members: [row.member],
      views: row.views,
    });
  }
  return listings;
}

export class LiveCollabGraph implements CollabGraph {
  constructor(private readonly store: Executor) {}

  async involving(channelIdx: number, nowMs: number): Promise<LiveCollabListing[]> {
    return listingsOf(await this.store.all<ListingMemberRow>(CHANNEL_SQL.involving, [channelIdx, nowMs]));
  }

  async knownPublished(fromMs: number, toMs: number): Promise<LiveCollabListing[]> {
    return listingsOf(await this.store.all<ListingMemberRow>(CHANNEL_SQL.knownListings, [toMs])).filter((listing) => listing.published_ms > fromMs && listing.published_ms <= toMs);
  }

  async isChecked(channelIdx: number, scanned: boolean, nowMs: number): Promise<boolean> {
    return scanned || (await this.store.get(CHANNEL_SQL.listedOnKnown, [channelIdx, nowMs])) !== undefined;
  }

  async checkedChannels(nowMs: number): Promise<number[]> {
    return (await this.store.all<{ idx: number }>(CHANNEL_SQL.checkedChannels, [nowMs])).map((row) => row.idx);
  }

  async snapshot(asOfMs: number): Promise<CollabSnapshot> {
    const listed = new Set<number>();
    const aggregates = new Map<number, CollabAggregate>();
    const partners = new Map<number, Set<number>>();
    for (const listing of listingsOf(await this.store.all<ListingMemberRow>(CHANNEL_SQL.knownListings, [asOfMs]))) {
      for (const idx of listing.members) listed.add(idx);
      if (listing.published_ms > asOfMs) continue;
      for (const idx of listing.members) {
        const entry = aggregates.get(idx) ?? { channel_idx: idx, partners: 0, collab_videos: 0, latest_published_ms: 0 };
        entry.collab_videos += 1;
        entry.latest_published_ms = Math.max(entry.latest_published_ms, listing.published_ms);
        aggregates.set(idx, entry);
        let set = partners.get(idx);
        if (!set) partners.set(idx, (set = new Set<number>()));
        for (const other of listing.members) if (other !== idx) set.add(other);
      }
    }
    for (const [idx, set] of partners) aggregates.get(idx)!.partners = set.size;
    return { aggregates, listed };
  }

  async views(listing: CollabListing, nowMs: number): Promise<number | null> {
    if (listing.published_ms > nowMs) return 0;
    if ('views' in listing) return (listing as LiveCollabListing).views;
    return (await this.store.get<{ views: number | null }>(CHANNEL_SQL.video, [listing.video_id]))?.views ?? null;
  }
}
