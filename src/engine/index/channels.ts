/**
 * The channels the index knows: every channel read (on the sample platform, the world's channels
 * — the hosted service knows them all), with the figures of its latest read and what its uploads
 * looked like. Alerts scan them; collab views name them.
 */
import type { ContentType, PlatformChannel } from '../platform/types.js';

/**
 * A channel as the index holds it. On the sample platform every field is known; on the live
 * platform the site does not say a channel's language or category, and its content type only
 * roughly, so those are null until something the engine read tells them.
 */
export interface IndexedChannel extends PlatformChannel {
  /** The index's compact key for the channel: stable, in the order channels became known. */
  idx: number;
  content_type: ContentType | null;
  /** The collab sweep covers the channel (see collab-graph.ts). */
  collab_scanned: boolean;
}

/** A lean row of a scan over many channels: no description, no figures. */
export type ScannedChannel = Pick<
  IndexedChannel,
  'idx' | 'channel_id' | 'handle' | 'title' | 'language' | 'content_type' | 'created_at' | 'category' | 'language_code' | 'collab_scanned'
>;

export type PublishedKind = 'long' | 'short';

/** Narrows a scan in the store, before any row reaches JavaScript. */
export interface ScanFilter {
  /** Only channels of these content types. */
  contentTypes?: readonly string[];
  /** Only channels that published a video of this kind after `ms`. */
  publishedAfter?: { kind: PublishedKind; ms: number };
  /** Only channels created on or before this date ('YYYY-MM-DD'). */
  createdBy?: string;
  /**
   * Instants, as milliseconds before each channel's latest figures, the caller will read its totals
   * at (statistics.totalsAt): an index that reads them from storage may bring them along the scan.
   */
  figuresBefore?: readonly number[];
}

/** Lean figures of a published video, for scans over many channels (no title). */
export interface VideoStat {
  video_id: string;
  ordinal: number;
  kind: PublishedKind;
  published_ms: number;
  /** null: the site gave no count for it (a live listing whose view text could not be read). */
  views: number | null;
}

/**
 * The known channels as features read them: asynchronous, since a fleet's index is in its
 * database. A scan comes in pages (one round trip each), in key order.
 */
export interface KnownChannels {
  byId(channelId: string): Promise<IndexedChannel | null>;
  byIdx(idx: number): Promise<IndexedChannel | null>;
  /** The channel id of a key (a channel only listed on a collab has one too). */
  idOf(idx: number): Promise<string>;
  /** Every known channel in key order, narrowed by `filter`, a page at a time. */
  scan(filter?: ScanFilter): AsyncIterable<ScannedChannel[]>;
  /** Channels created on or after a date ('YYYY-MM-DD'). */
  createdSince(date: string): Promise<IndexedChannel[]>;
  /** The channel's own newest published videos (of `kind`), newest first. */
  recentVideoStats(channel: ScannedChannel, kind?: PublishedKind, limit?: number): Promise<VideoStat[]>;
  /** Whether the channel published a video (of `kind`) after `sinceMs`. */
  publishedSince(channel: ScannedChannel, sinceMs: number, kind?: PublishedKind): Promise<boolean>;
  /** The title of a video the index listed, or null. */
  videoTitle(videoId: string): Promise<string | null>;
}

/** The same reads, answered at once from memory: what the sample world's seed hands the index (seed.ts). */
export interface SeedChannels {
  byId(channelId: string): IndexedChannel | null;
  byIdx(idx: number): IndexedChannel | null;
  idOf(idx: number): string;
  scan(filter?: ScanFilter): IterableIterator<ScannedChannel>;
  createdSince(date: string): IndexedChannel[];
  recentVideoStats(channel: ScannedChannel, kind?: PublishedKind, limit?: number): VideoStat[];
  publishedSince(channel: ScannedChannel, sinceMs: number, kind?: PublishedKind): boolean;
  videoTitle(videoId: string): string | null;
}
