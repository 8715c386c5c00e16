/**
 * Uploads after the reference date: what makes the world move.
 *
 * Day by day, a channel uploads a Poisson number of videos around its upload rate (a hash of
 * (channel, day) decides the count, so "did it upload that day" costs one hash); the day's own
 * generator then draws each upload's time, kind, views, whether it is a premiere announced days
 * ahead (an *upcoming* video until it publishes) and whether it is a collab. On a breakout day
 * (breakouts.ts) the first upload is the viral video.
 *
 * Upload k of day d has ordinal UPLOAD_ORDINAL_BASE + (d − refDay − 1) · 16 + k, so a video id
 * decodes straight to its day and slot: ids never shift as the world moves.
 */
import { DAY_MS } from '../../dates.js';
import { breakoutOn } from './breakouts.js';
import { mix32, rngFor, unitHash } from './prng.js';
import { kindBase, UPLOAD_ORDINAL_BASE, viewFactor, type PublishedKind } from './video-model.js';
import type { ContentType } from './words.js';

export const SLOTS_PER_DAY = 16;
/** Premieres are announced at most this many days before they publish. */
export const MAX_ANNOUNCE_DAYS = 14;
const PREMIERE_CHANCE = 0.08;
const COLLAB_PREMIERE_CHANCE = 0.3;

export interface UploadStreams {
  /** Roots the per-day upload counts. */
  counts: number;
  /** Roots each (channel, day) generator. */
  days: number;
}

/** What uploads depend on: immutable columns of the channel row. */
export interface UploadSource {
  idx: number;
  content_type: ContentType;
  upload_rate: number;
  typical_views: number;
  noise: number;
  collab_share: number;
  /** First day the channel uploads on (the day after the reference date, or after its creation). */
  firstDay: number;
}

export interface Upload {
  ordinal: number;
  day: number;
  kind: PublishedKind;
  publishedMs: number;
  /** When it became visible: its publish time, or earlier for a premiere (upcoming until then). */
  announcedMs: number;
  /** Views it settles at. */
  potential: number;
  breakout: boolean;
  collab: boolean;
  /** Uniform draws that pick its collaborators from the host's partners (collabs.ts). */
  collabDraws: [count: number, ...picks: number[]];
}

export function uploadOrdinal(refDay: number, day: number, slot: number): number {
  return UPLOAD_ORDINAL_BASE + (day - refDay - 1) * SLOTS_PER_DAY + slot;
}

export function decodeUploadOrdinal(refDay: number, ordinal: number): { day: number; slot: number } | null {
  if (ordinal < UPLOAD_ORDINAL_BASE) return null;
  const relative = ordinal - UPLOAD_ORDINAL_BASE;
  return { day: refDay + 1 + Math.floor(relative / SLOTS_PER_DAY), slot: relative % SLOTS_PER_DAY };
}

function mainKind(contentType: ContentType): PublishedKind {
  return contentType === 'shorts' ? 'short' : 'long';
}

function kindOf(contentType: ContentType, draw: number): PublishedKind {
  if (contentType === 'longform') return draw < 0.1 ? 'short' : 'long';
  if (contentType === 'shorts') return draw < 0.08 ? 'long' : 'short';
  return draw < 0.5 ? 'long' : 'short';
}

/** How many videos the channel publishes on `day` (cheap: one or two hashes). */
export function uploadCount(streams: UploadStreams, src: UploadSource, refDay: number, day: number): number {
  if (day < src.firstDay) return 0;
  const u = unitHash(mix32(streams.counts, src.idx), day);
  let p = Math.exp(-src.upload_rate);
  let cdf = p;
  let n = 0;
  while (u > cdf && n < SLOTS_PER_DAY - 1) {
    n += 1;
    p *= src.upload_rate / n;
    cdf += p;
  }
  // A breakout day has its viral video; a channel that appeared after the reference date
  // publishes its first video the day after it appears.
  if (n === 0 && (breakoutOn(src.noise, refDay, day) || (day === src.firstDay && src.firstDay > refDay + 1))) n = 1;
  return n;
}

/** The channel's uploads of `day`, in publishing order. */
export function uploadsOn(streams: UploadStreams, src: UploadSource, refDay: number, day: number): Upload[] {
  const n = uploadCount(streams, src, refDay, day);
  if (n === 0) return [];
  const breakout = breakoutOn(src.noise, refDay, day);
  const rng = rngFor(streams.days, mix32(src.idx, day));
  const offsets: number[] = [];
  for (let k = 0; k < n; k++) offsets.push(Math.floor(rng.next() * 86_400) * 1000);
  offsets.sort((a, b) => a - b);
  const out: Upload[] = [];
  for (let k = 0; k < n; k++) {
    const viral = breakout !== null && k === 0;
    const kindDraw = rng.next();
    const kind = viral ? mainKind(src.content_type) : kindOf(src.content_type, kindDraw);
    const factor = viewFactor(rng, kind);
    const premiereDraw = rng.next();
    const lead = 1 + Math.floor(rng.next() * MAX_ANNOUNCE_DAYS);
    const collab = rng.next() < src.collab_share;
    // Collabs are announced ahead more often: both channels want the audience there.
    const premiere = kind === 'long' && premiereDraw < (collab ? COLLAB_PREMIERE_CHANCE : PREMIERE_CHANCE);
    const collabDraws: Upload['collabDraws'] = [rng.next(), rng.next(), rng.next(), rng.next()];
    const publishedMs = day * DAY_MS + offsets[k]!;
    out.push({
      ordinal: uploadOrdinal(refDay, day, k),
      day,
      kind,
      publishedMs,
      announcedMs: premiere ? publishedMs - lead * DAY_MS : publishedMs,
      potential: src.typical_views * kindBase(src.content_type, kind) * factor * (viral ? breakout.multiple : 1),
      breakout: viral,
      collab,
      collabDraws,
    });
  }
  return out;
}
