import type { IndexedChannel } from '../../index/channels.js';
import type { DailyStat, Deltas, Growth } from '../../index/statistics.js';
import type { WorldInfo } from '../simulation.js';
import type { PlatformVideo, VideoKind } from '../types.js';
import type { ContentType } from './words.js';

export type { ContentType, DailyStat, Deltas, Growth, VideoKind, WorldInfo };

/**
 * Per-channel parameters from which the daily history is derived
 * (world truth: not something the platform would show).
 */
export interface ChannelGrowthModel {
  /** Expected subscriber change per day now (absolute; negative for declining channels). */
  sub_rate: number;
  /** Expected views per day now. */
  view_rate: number;
  /** Relative change of the rates per day; > 0 means the channel is accelerating. */
  trend: number;
  /** Day-to-day noise (sigma of a log-normal multiplier). */
  volatility: number;
  /** 32-bit seed of the daily noise and of the occasional viral spike. */
  noise: number;
}

/** How the channel moves after the reference date (world truth; see stats.ts and uploads.ts). */
export interface ChannelWorldState {
  /** Uploads it had on the reference date (0 for channels that appeared later). */
  origin_videos: number;
  /** Stats anchor: raw totals at the end of `anchor_day`. */
  anchor_day: number;
  day_subs: number;
  day_views: number;
  /** Usual views per video. */
  typical_views: number;
  /** Uploads per day after the reference date. */
  upload_rate: number;
  /** Share of its uploads that are collabs (0: it never hosts one). */
  collab_share: number;
  /** When its newest long video and newest short were published (ms; 0 when it has none). */
  last_long_ms: number;
  last_short_ms: number;
}

/** A world channel is what the index holds about it (the world seeds the index), plus its model. */
export interface WorldChannel extends IndexedChannel {
  // The world knows every channel's language, country, category and content type.
  language: string;
  language_code: string;
  country: string;
  category: string;
  content_type: ContentType;
  subscribers: number;
  total_views: number;
  video_count: number;
  model: ChannelGrowthModel;
  state: ChannelWorldState;
}

/** What deriving a channel's videos and statistics needs: a WorldChannel, or a lean scan row. */
export type ChannelCore = Pick<
  WorldChannel,
  'idx' | 'channel_id' | 'handle' | 'title' | 'language' | 'content_type' | 'created_at' | 'category' | 'language_code' | 'collab_scanned' | 'model' | 'state'
>;

/** The sample world measures every figure: none is unknown. */
export interface WorldVideo extends PlatformVideo {
  views: number;
  likes: number;
  comments: number;
  duration_seconds: number;
  published_at: string;
  /**
   * Stable number of the video within its host channel, encoded in `video_id`: generated videos
   * count from the oldest (0…), uploads after the reference date from UPLOAD_ORDINAL_BASE by day.
   */
  ordinal: number;
  /** Channel ids the video is also listed under (a collab); empty for a solo video. */
  collaborators: string[];
}

export interface WorldOptions {
  seed: string | number;
  channels: number;
  /** Terminated channels; DEFAULT_WORLD_TERMINATED when omitted. */
  terminated?: number;
  /** 'YYYY-MM-DD'; when omitted, an existing matching world is kept whatever its date. */
  referenceDate?: string;
  /** The day a world generated without `referenceDate` is made for (TUBEKIT_WORLD_DATE); today (UTC) when omitted. Never a reason to regenerate. */
  defaultReferenceDate?: string;
}
