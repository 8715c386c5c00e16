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
  involving(channelIdx: number, nowMs: number): Promise<CollabListing[]>;
  /** Known collab videos published in (fromMs, toMs], newest first. */
  knownPublished(fromMs: number, toMs: number): Promise<CollabListing[]>;
  /** Scanned, or listed on a known collab video: the service has collab data about it. */
  isChecked(channelIdx: number, scanned: boolean, nowMs: number): Promise<boolean>;
  /** Every checked channel at `nowMs`. */
  checkedChannels(nowMs: number): Promise<number[]>;
  /** Per channel, partners and collab counts over known videos published by `asOfMs`; and every channel listed on a known video then. */
  snapshot(asOfMs: number): Promise<CollabSnapshot>;
  /** A listing's views at `nowMs` (0 while upcoming; null when no read gave a count). */
  views(listing: CollabListing, nowMs: number): Promise<number | null>;
}

export interface CollabSnapshot {
  aggregates: Map<number, CollabAggregate>;
  listed: Set<number>;
}

/** The same reads answered at once from memory: the sample world's collab graph (seed.ts). */
export interface SeedCollabs {
  involving(channelIdx: number, nowMs: number): CollabListing[];
  knownPublished(fromMs: number, toMs: number): CollabListing[];
  isChecked(channelIdx: number, scanned: boolean, nowMs: number): boolean;
  checkedChannels(nowMs: number): number[];
  snapshot(asOfMs: number): CollabSnapshot;
  views(listing: CollabListing, nowMs: number): number;
}
