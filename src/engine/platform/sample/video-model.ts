/**
 * The lean model of a channel's videos: when each was published, its kind, and the views it
 * settles at (its *potential*), without titles or other text. Alerts scan it for every channel of
 * the world, so it must stay cheap; videos.ts dresses these facts up as full platform videos.
 *
 * Two sources:
 * - the *generated* videos: what the channel showed on the reference date (6–20 recent uploads),
 *   a pure function of the channel row (`generatedTimeline`), ordinals 0..n-1 oldest first;
 * - the *uploads* after it (uploads.ts), ordinals from UPLOAD_ORDINAL_BASE on.
 *
 * A video's views at instant t are `potential × (1 − e^(−age/τ))`: they grow fast at first and
 * level off (τ = 1.5 days for shorts, 4 for long videos), so views never decrease.
 */
import type { PublishedKind } from '../../index/channels.js';
import { DAY_MS } from '../../dates.js';
import { clamp, Rng, rngFor } from './prng.js';
import type { ContentType } from './words.js';

export const MAX_RECENT_VIDEOS = 20;
/** Ordinals below this are generated videos; uploads after the reference date start here. */
export const UPLOAD_ORDINAL_BASE = 64;
/** Log-normal spread of a video's views around the channel's usual figure. */
const VIEW_SIGMA = { long: 0.6, short: 0.8 } as const;
const MATURITY_DAYS = { long: 4, short: 1.5 } as const;

export type { PublishedKind };

/** Share of a channel's usual views a video of this kind gets, by the channel's content type. */
export function kindBase(contentType: ContentType | string, kind: PublishedKind): number {
  if (kind === 'short') return contentType === 'shorts' ? 1 : contentType === 'mixed' ? 0.7 : 0.35;
  return contentType === 'shorts' ? 0.5 : 1;
}

/** Views of a video with this potential `ageMs` after it was published. */
export function viewsAt(potential: number, kind: PublishedKind, ageMs: number): number {
  if (ageMs <= 0) return 0;
  return Math.floor(potential * (1 - Math.exp(-ageMs / DAY_MS / MATURITY_DAYS[kind])));
}

/** A log-normal factor with median 1 for a video of `kind`. */
export function viewFactor(rng: Rng, kind: PublishedKind): number {
  return Math.exp(VIEW_SIGMA[kind] * rng.normal());
}

export interface VideoPlan {
  long: number;
  short: number;
}

/** How many videos of each kind a channel showed on the reference date. First draws of its stream. */
export function planVideos(rng: Rng, contentType: ContentType, videoCount: number): VideoPlan {
  let long: number;
  let short: number;
  if (contentType === 'longform') {
    long = rng.int(6, 14);
    short = rng.chance(0.35) ? rng.int(1, 3) : 0;
  } else if (contentType === 'shorts') {
    short = rng.int(10, 20);
    long = rng.chance(0.3) ? rng.int(1, 2) : 0;
  } else {
    long = rng.int(4, 9);
    short = rng.int(4, 10);
  }
  if (long + short > MAX_RECENT_VIDEOS) short = MAX_RECENT_VIDEOS - long;
  const published = long + short;
  if (published > videoCount) {
    long = Math.round((long * videoCount) / published);
    short = videoCount - long;
  }
  return { long, short };
}

/** What the generated timeline needs of a channel (values as generated, never the moved ones). */
export interface TimelineChannel {
  idx: number;
  content_type: ContentType;
  /** Uploads the channel had on the reference date. */
  origin_videos: number;
  createdDay: number;
}

export interface PlannedVideo {
  ordinal: number;
  kind: PublishedKind;
  publishedMs: number;
  /** Log-normal factor of its views (median 1). */
  factor: number;
}

/**
 * The videos a channel showed on the reference date, newest first: exponential gaps around its
 * upload cadence, squeezed if needed so every video is younger than the channel.
 */
export function generatedTimeline(stream: number, ch: TimelineChannel, refDay: number): PlannedVideo[] {
  const rng = rngFor(stream, ch.idx);
  const plan = planVideos(rng, ch.content_type, ch.origin_videos);
  const kinds: PublishedKind[] = rng.shuffle([...Array<PublishedKind>(plan.long).fill('long'), ...Array<PublishedKind>(plan.short).fill('short')]);
  const originMs = (refDay + 1) * DAY_MS;
  const ageDays = refDay - ch.createdDay;
  const meanGap = clamp((ageDays / Math.max(1, ch.origin_videos)) * rng.logNormal(1, 0.4), 0.1, 90);
  const gaps: number[] = [];
  let span = 0;
  for (let i = 0; i < kinds.length; i++) {
    const gap = i === 0 ? rng.exponential(meanGap * 0.6) : rng.exponential(meanGap) + 0.02;
    gaps.push(gap);
    span += gap;
  }
  const squeeze = span > ageDays - 1 ? (ageDays - 1) / span : 1;
  const out: PlannedVideo[] = [];
  let back = 0;
  for (let i = 0; i < kinds.length; i++) {
    back += gaps[i]! * squeeze;
    const publishedMs = Math.floor((originMs - back * DAY_MS) / 1000) * 1000;
    out.push({ ordinal: kinds.length - 1 - i, kind: kinds[i]!, publishedMs, factor: viewFactor(rng, kinds[i]!) });
  }
  return out;
}

/**
 * The channel's usual views per video: its average, scaled down where needed so its recent videos
 * never account for more than half of its views on the reference date.
 */
export function usualViews(timeline: readonly PlannedVideo[], contentType: ContentType, totalViews: number, videoCount: number, refDay: number): number {
  const average = totalViews / Math.max(1, videoCount);
  const originMs = (refDay + 1) * DAY_MS;
  let sum = 0;
  for (const video of timeline) sum += viewsAt(average * kindBase(contentType, video.kind) * video.factor, video.kind, originMs - video.publishedMs);
  const cap = totalViews * 0.5;
  return sum > cap ? (average * cap) / sum : average;
}
