/**
 * The collab graph: videos that list several channels, as far as the service knows them. A
 * collab video is *known* when one of its channels is scanned by the collab sweep; a channel is
 * *checked* when it is scanned or listed on a known collab. Channels are the index's keys
 * (`IndexedChannel.idx`); times are the platform's.
 */

export interface CollabListing {
  video_id: string;
  /** The channel it was uploaded to. */
  host_idx: number;
  kind: 'long' | 'short';
  published_ms: number;
  /** When it became visible (a premiere is announced before it publishes). */
  announced_ms: number;
  /** The service knows it: one of its channels is scanned. */
  known: boolean;
  /** Channels it is listed under, host first. */
  members: number[];
}

export interface CollabAggregate {
  channel_idx: number;
  /** Distinct channels it shares published known collab videos with. */
  partners: number;
  collab_videos: number;
  latest_published_ms: number;
}

export interface CollabGraph {
  /** Every visible collab video listing the channel (host or collaborator), newest first. */
  involving(channelIdx: number, nowMs: number): CollabListing[];
  /** Known collab videos published in (fromMs, toMs], newest first. */
  knownPublished(fromMs: number, toMs: number): CollabListing[];
  /** Scanned, or listed on a known collab video: the service has collab data about it. */
  isChecked(channelIdx: number, scanned: boolean, nowMs: number): boolean;
  /** Every checked channel at `nowMs`. */
  checkedChannels(nowMs: number): number[];
  /** Per channel, partners and collab counts over known videos published by `asOfMs`; and every channel listed on a known video then. */
  snapshot(asOfMs: number): { aggregates: Map<number, CollabAggregate>; listed: Set<number> };
  /** A listing's views at `nowMs` (0 while upcoming). */
  views(listing: CollabListing, nowMs: number): number;
}
