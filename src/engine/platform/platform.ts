/**
 * What the engine needs from "the video platform": what the site shows now.
 *
 * Implemented by the sample world (`sample/`, a deterministic synthetic world stored in SQLite);
 * the live site (`live/`, youtubei.js) will implement the same interface. What the service has
 * learned over time — statistics history, the collab graph, terminated channels, pre-checked
 * verdicts — is the engine's index (src/engine/index/), not the platform's.
 *
 * This directory's top-level files are a leaf: they import nothing from an implementation (the
 * import-rules test checks it). Engine code reaches an implementation only through `factory/`.
 *
 * Methods may answer synchronously or with a promise (`Awaitable`): callers should always `await`
 * them. Unknown ids/handles resolve to `null`.
 */
import type { PlatformMedia } from './media.js';
import type { NetworkOwner } from './networks.js';
import type { AdPage, ExternalMonetizationTruth } from './page-signals.js';
import type { PublicPageReads } from './public-pages.js';
import type { SimulatedWorld } from './simulation.js';
import type { Transcript } from './transcript.js';
import type { ChannelPresence, PlatformChannel, PlatformVideo, VideoKind } from './types.js';

export type { ChannelPresence, PlatformChannel, PlatformVideo, VideoKind };

export type Awaitable<T> = T | Promise<T>;

/** The implementations a data dir can use. */
export type PlatformName = 'sample' | 'live';

export interface ChannelVideosOptions {
  kind?: VideoKind;
  /** Maximum number of videos (newest first). */
  limit?: number;
}

/** Who manages a channel, as a read of the platform finds it now. */
export interface NetworkReads {
  /** The network managing the channel now, or null (not managed, or unknown channel). */
  ownerOf(channelId: string): Awaitable<NetworkOwner | null>;
  network(oid: string): Awaitable<NetworkOwner | null>;
}

export interface PlatformProvider {
  /** Which implementation this is. */
  readonly source: PlatformName;
  /** The platform's current time (ms since the epoch): publish dates and figures are as of it. */
  nowMs(): number;
  /** Accepts "@handle" or a channel URL ("/@handle", a legacy "/c/name" or "/user/name"); case-insensitive. */
  resolveHandle(handle: string): Awaitable<PlatformChannel | null>;
  channelById(channelId: string): Awaitable<PlatformChannel | null>;
  /** A live read's finding about a channel: active, terminated (with the site's reason) or missing. */
  channelPresence?(channelId: string): Awaitable<ChannelPresence>;
  videoById(videoId: string): Awaitable<PlatformVideo | null>;
  /** Recent videos, newest first (upcoming ones first). Unknown channel: []. */
  channelVideos(channelId: string, options?: ChannelVideosOptions): Awaitable<PlatformVideo[]>;
  /** The video's captions, or null when it has none (or is unknown). */
  transcript(videoId: string): Awaitable<Transcript | null>;
  /** The platform's languages (name and ISO code), for validating filters. */
  languages(): ReadonlyArray<{ name: string; code: string }>;
  /** The platform's channel categories. */
  categories(): readonly string[];
  /** Managed networks (CMS owners): who manages a channel now. */
  readonly networks: NetworkReads;
  /**
   * A live read of the channel's newest longform watch pages at `atMs`: ads, none, or blocked.
   * Whether pages carry ads follows the platform's own time (the sample world's clock). Unknown channel: [].
   */
  readAdPages(channelId: string, atMs: number): Awaitable<AdPage[]>;
  /** What the channel sells outside the platform, as its pages show it. Unknown channel: null. */
  externalMonetization(channelId: string): Awaitable<ExternalMonetizationTruth | null>;
  /**
   * The platform's media source (video, audio and caption files as the platform serves them): the
   * live platform's yt-dlp and ffmpeg. Absent on the sample world, whose media the engine renders.
   */
  readonly media?: PlatformMedia;
  /**
   * Public pages for the checks to judge, on a platform that cannot answer the truth (the live
   * site: who manages a channel and what it sells are read off its pages). Absent on the sample world.
   */
  readonly publicPages?: PublicPageReads;
  /** Present on a simulated platform (the sample world): its clock, parameters and things to try. */
  readonly simulation?: SimulatedWorld;
}
