/**
 * What the engine needs from "the video platform".
 *
 * Implemented today by `SampleWorld` (a deterministic synthetic world stored
 * in SQLite); a live implementation (youtubei.js) will implement the same
 * interface later. Nothing here refers to SQLite or to the world's internals.
 *
 * Methods may answer synchronously or with a promise (`Awaitable`): callers
 * should always `await` them. Unknown ids/handles resolve to `null`.
 */

import type { AdPage } from './ad-pages.js';
import type { ExternalMonetizationTruth } from './external-monetization.js';
import type { NetworkProvider } from './networks.js';
import type { TerminatedChannel, TerminatedQuery, TerminatedSearchResult } from './terminated/reader.js';
import type { Transcript } from './transcripts.js';

export type Awaitable<T> = T | Promise<T>;

export type VideoKind = 'long' | 'short' | 'upcoming';

export interface PlatformChannel {
  /** "UC" + 22 chars. */
  channel_id: string;
  /** Display handle including the leading "@", e.g. "@cozycookingjane". */
  handle: string;
  title: string;
  description: string;
  /** Language name ("English"), when known. */
  language: string | null;
  /** ISO 639-1 code ("en"; "fil" for Filipino), when known. */
  language_code: string | null;
  /** ISO 3166-1 alpha-2 country, when known. */
  country: string | null;
  category: string | null;
  /** 'longform' | 'shorts' | 'mixed' when known. */
  content_type: string | null;
  subscribers: number;
  total_views: number;
  video_count: number;
  /** Channel creation date, 'YYYY-MM-DD'. */
  created_at: string;
  thumbnail_url: string;
}

export interface PlatformVideo {
  /** 11 chars [A-Za-z0-9_-]. */
  video_id: string;
  channel_id: string;
  kind: VideoKind;
  title: string;
  views: number;
  likes: number;
  comments: number;
  /** 0 for upcoming videos. */
  duration_seconds: number;
  /** ISO timestamp ("2026-11-20T14:03:12Z"); in the future for upcoming videos. */
  published_at: string;
  thumbnail_url: string;
}

export interface DailyStat {
  /** 'YYYY-MM-DD' (UTC day); figures are as of the end of that day. */
  date: string;
  subscribers: number;
  views: number;
  /** Change since the previous day (may be negative for subscribers). */
  subscribers_gained: number;
  views_gained: number;
}

/** Absolute gains over a window ending at the platform's "now". */
export interface Growth {
  subscribers: number;
  views: number;
}

export interface Deltas {
  views_24h: number;
  views_48h: number;
  subs_24h: number;
  subs_48h: number;
}

export interface ChannelVideosOptions {
  kind?: VideoKind;
  /** Maximum number of videos (newest first). */
  limit?: number;
}

export interface PlatformProvider {
  /** Short name of the implementation ('sample', 'live', ...). */
  readonly source: string;
  /** Accepts "@handle", "handle" or a channel URL ending in "/@handle"; case-insensitive. */
  resolveHandle(handle: string): Awaitable<PlatformChannel | null>;
  channelById(channelId: string): Awaitable<PlatformChannel | null>;
  videoById(videoId: string): Awaitable<PlatformVideo | null>;
  /** Recent videos, newest first (upcoming ones first). Unknown channel: []. */
  channelVideos(channelId: string, options?: ChannelVideosOptions): Awaitable<PlatformVideo[]>;
  /** Daily history, oldest first; defaults to the last 60 days. Unknown channel: []. */
  dailyStats(channelId: string, fromDate?: string, toDate?: string): Awaitable<DailyStat[]>;
  /** Gains over the last `days` days. Unknown channel: null. */
  growth(channelId: string, days: number): Awaitable<Growth | null>;
  deltas(channelId: string): Awaitable<Deltas | null>;
  /** The video's captions, or null when it has none (or is unknown). */
  transcript(videoId: string): Awaitable<Transcript | null>;
  /** Managed networks (CMS owners): who manages a channel, and the hosted service's pre-checked index. */
  readonly networks: NetworkProvider;
  /** A live read of the channel's newest longform watch pages at `atMs`: ads, none, or blocked. Unknown channel: []. */
  readAdPages(channelId: string, atMs: number): Awaitable<AdPage[]>;
  /** What the channel sells outside the platform, as its pages show it. Unknown channel: null. */
  externalMonetization(channelId: string): Awaitable<ExternalMonetizationTruth | null>;
  /** Terminated and deleted channels, searched by keyword with filters and sorts. */
  readonly terminated: {
    search(query: TerminatedQuery): Awaitable<TerminatedSearchResult>;
    /** The record of one terminated channel; null when no terminated channel has the id. */
    byId(channelId: string): Awaitable<TerminatedChannel | null>;
  };
}
