import type { DailyStat, Deltas, Growth, PlatformChannel, PlatformVideo, VideoKind } from './platform.js';
import type { ContentType } from './words.js';

export type { ContentType, DailyStat, Deltas, Growth, VideoKind };

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

export interface WorldChannel extends PlatformChannel {
  /** 0-based position in the world (generation order); stable for a given seed. */
  idx: number;
  language: string;
  language_code: string;
  country: string;
  category: string;
  content_type: ContentType;
  model: ChannelGrowthModel;
}

export interface WorldVideo extends PlatformVideo {
  /** Position in the owning channel's list (0 = newest); encoded in `video_id`. */
  ordinal: number;
}

export interface WorldInfo {
  generator_version: number;
  seed: string;
  channel_count: number;
  video_count: number;
  terminated_count: number;
  /** The world's "today" ('YYYY-MM-DD'): histories end on this day. */
  reference_date: string;
  /** Wall-clock ISO timestamp of generation (the only non-deterministic value). */
  generated_at: string;
  generation_ms: number;
}

export interface WorldOptions {
  seed: string | number;
  channels: number;
  /** Terminated channels; DEFAULT_WORLD_TERMINATED when omitted. */
  terminated?: number;
  /** 'YYYY-MM-DD'; when omitted, an existing matching world is kept whatever its date, else today (UTC). */
  referenceDate?: string;
}
