/**
 * What a simulated platform (the sample world) offers besides the platform's reads: parameters it
 * was generated with, a clock that moves only when told, and channels and videos to try commands
 * with. Commands that need it (`engine seed`, `engine world advance`, `engine sample …`) ask for it
 * with `requireSimulation`, so they say plainly when the data dir's platform is not simulated.
 */
import { notImplementedOnLive } from '../../core/errors.js';
import type { PlatformChannel, PlatformVideo } from './types.js';

const DAY_MS = 86_400_000;

/** One advance moves the world at most this far (call again for more). */
export const MAX_ADVANCE_MS = 366 * DAY_MS;
export const MIN_ADVANCE_MS = 60_000;

/** The parameters a sample world is generated from (kept in the engine's settings as `world`). */
export interface WorldSettings {
  seed: number | string;
  channels: number;
  /** Terminated channels, a parameter of their own (the default count when absent). */
  terminated?: number;
  /** The day the world is generated for ('YYYY-MM-DD'); absent: TUBEKIT_WORLD_DATE, else today. */
  referenceDate?: string;
  /** Not kept in settings: TUBEKIT_WORLD_DATE, the day of a world generated without `referenceDate`. */
  defaultReferenceDate?: string;
}

export interface WorldInfo {
  generator_version: number;
  seed: string;
  /** Channels generated (those that appeared later are `arrived_channels`). */
  channel_count: number;
  /** Published videos: the generated ones plus uploads since the reference date. */
  video_count: number;
  terminated_count: number;
  /** The date the world was generated for: its clock starts at the end of this day. */
  reference_date: string;
  /** The world's current time (ISO), the end of the reference date plus `advanced_ms`. */
  world_time: string;
  /** Total world time advanced since generation. */
  advanced_ms: number;
  /** Channels that appeared since the reference date. */
  arrived_channels: number;
  /** Wall-clock ISO timestamp of generation (the only non-deterministic value). */
  generated_at: string;
  generation_ms: number;
}

export interface AdvanceReport {
  /** World time before and after (ISO). */
  from: string;
  to: string;
  advanced_ms: number;
  new_channels: number;
  published_videos: number;
  /** Collab videos that became visible (published, or announced as upcoming). */
  new_collab_videos: number;
  /** Channels whose viral video came out in the span. */
  breakouts: number;
}

/** A channel listed by `tubekit engine sample channels`. */
export interface SampleChannel extends PlatformChannel {
  language: string;
  category: string;
  content_type: string;
}

/** A video listed by `tubekit engine sample videos`. */
export interface SampleVideo {
  video_id: string;
  channel_id: string;
  title: string;
  duration_seconds: number;
  kind: PlatformVideo['kind'];
  /** Which captions the video carries: human-authored, auto-generated, or none. */
  captions: 'human' | 'auto' | null;
  url: string;
  /** Channels it is listed under besides its host (`channel_id`): a collab. */
  collaborators: string[];
}

export interface SimulatedWorld {
  info(): WorldInfo;
  /** Moves the world's clock forward by `ms` (MIN_ADVANCE_MS to MAX_ADVANCE_MS). */
  advance(ms: number): AdvanceReport;
  /** A varied, stable selection of channels (size tiers interleaved), paged with offset. */
  sampleChannels(limit: number, offset?: number): SampleChannel[];
  /** Published videos to try commands with; with a channel id, the videos listed under it. */
  sampleVideos(limit: number, channelId?: string): SampleVideo[];
}

/** The platform's simulation, or an error saying the command needs the sample platform. */
export function requireSimulation(platform: { readonly source: string; readonly simulation?: SimulatedWorld }, what = 'this command'): SimulatedWorld {
  if (!platform.simulation) {
    throw notImplementedOnLive(`${what} (it needs the sample platform; this data dir uses the ${platform.source} platform)`);
  }
  return platform.simulation;
}
