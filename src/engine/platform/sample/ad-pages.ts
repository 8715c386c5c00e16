/**
 * Ads on the sample world's watch pages: derived on demand, never stored (like videos).
 *
 * Each channel has an ad profile drawn from the `ads` stream (channel idx):
 * - monetized or not: never under 1,000 subscribers (the platform's partner threshold); above it,
 *   bigger channels are likelier to carry ads;
 * - about 12% of eligible channels flip: their status alternates every `period` (6 to 72 hours)
 *   from a per-channel phase, as a function of the world's time — so two checks with the world
 *   moved between them (`engine world advance`) can disagree, and a flip shows between them;
 * - how often its pages block reads: ~4% always (every read blocked), ~12% often (70% of reads),
 *   the rest rarely (3%). A page's block is drawn per video and per 10-minute window, so a retry
 *   later may get through.
 *
 * A read looks at the newest longform videos (up to `AD_PAGES_READ`, upcoming ones excluded): on a
 * monetized channel the newest carries ads and each older one does with the channel's ad share;
 * on a channel without monetization no page carries ads.
 */
import { clamp, hashString, rngFor, streamSeed, unitHash } from './prng.js';
import type { AdPage } from '../page-signals.js';
import type { WorldChannel, WorldVideo } from './types.js';

export type { AdPage, AdPageOutcome } from '../page-signals.js';

export const AD_PAGES_READ = 5;
/** Channels under this many subscribers are never monetized. */
export const AD_ELIGIBLE_SUBSCRIBERS = 1_000;

const HOUR_MS = 3_600_000;
const BLOCK_WINDOW_MS = 10 * 60_000;
const BLOCK_CHANCE = { always: 1, often: 0.7, rarely: 0.03 } as const;


export interface AdProfile {
  monetized: boolean;
  /** Status alternates every `period_ms`, starting from `phase_ms`; null when it never flips. */
  flip: { period_ms: number; phase_ms: number } | null;
  blocking: keyof typeof BLOCK_CHANCE;
  /** Chance that an older page of a monetized channel carries ads. */
  ad_share: number;
}

export function adProfile(seed: string, channel: WorldChannel): AdProfile {
  const rng = rngFor(streamSeed(seed, 'ads'), channel.idx);
  const eligible = channel.subscribers >= AD_ELIGIBLE_SUBSCRIBERS;
  const bigness = clamp(Math.log10(channel.subscribers + 1) / 7, 0, 1);
  const monetized = eligible && rng.chance(0.2 + 0.65 * bigness);
  const flips = eligible && rng.chance(0.12);
  const period = rng.int(6, 72) * HOUR_MS;
  const phase = rng.int(0, period - 1);
  const b = rng.next();
  return {
    monetized,
    flip: flips ? { period_ms: period, phase_ms: phase } : null,
    blocking: b < 0.04 ? 'always' : b < 0.16 ? 'often' : 'rarely',
    ad_share: rng.float(0.5, 1),
  };
}

/** Whether the channel carries ads at `atMs`. */
export function monetizedAt(profile: AdProfile, atMs: number): boolean {
  if (!profile.flip) return profile.monetized;
  const half = Math.floor((atMs + profile.flip.phase_ms) / profile.flip.period_ms);
  return profile.monetized !== (half % 2 === 1);
}

/**
 * The newest longform pages of the channel: carrying ads or not as the platform stands at
 * `statusAtMs` (the world's time, which `engine world advance` moves), blocked or not by the
 * 10-minute window of the read itself at `readAtMs` (the engine's clock: a retry later may get through).
 */
export function readAdPages(seed: string, channel: WorldChannel, videos: readonly WorldVideo[], readAtMs: number, statusAtMs: number): AdPage[] {
  const profile = adProfile(seed, channel);
  const monetized = monetizedAt(profile, statusAtMs);
  const window = Math.floor(readAtMs / BLOCK_WINDOW_MS);
  const pages = videos.filter((video) => video.kind === 'long').slice(0, AD_PAGES_READ);
  return pages.map((video, index) => {
    const key = hashString(video.video_id);
    const blocked = unitHash(key, window) < BLOCK_CHANCE[profile.blocking];
    const ads = monetized && (index === 0 || unitHash(key, 0x0ad5) < profile.ad_share);
    return {
      video_id: video.video_id,
      title: video.title,
      published_at: video.published_at,
      outcome: blocked ? 'blocked' : ads ? 'ads' : 'no_ads',
    };
  });
}
