/**
 * Videos: derived lazily, never stored (collab listings aside, see collabs.ts).
 *
 * A channel's videos are its generated ones (what it showed on the reference date) and its
 * uploads since (video-model.ts, uploads.ts), both pure functions of (seed, channel row, day).
 * What the platform shows at world time `now`: the upcoming premieres already announced, then the
 * newest MAX_RECENT_VIDEOS published ones; views grow with the video's age.
 *
 * A video's id encodes (host channel index, ordinal) through a keyed permutation (ids.ts), and
 * ordinals never change: generated videos count from the oldest, uploads by (day, slot). So
 * `videoById` decodes the id, loads one channel row and re-derives that one video, for every
 * video of every world size and at any world time, and ids stay valid as the world moves.
 *
 * The only thing computed at generation time is the count for world_meta.video_count.
 */
import type Database from 'better-sqlite3';
import type { VideoStat } from '../../index/channels.js';
import { DAY_MS, msToTimestamp } from '../../dates.js';
import type { GenerationContext, WorldEntity } from './entity.js';
import { decodeVideoId, encodeVideoId, idKeys, type IdKeys } from './ids.js';
import { clamp, mix32, Rng, rngFor, streamSeed } from './prng.js';
import type { ChannelCore, WorldVideo } from './types.js';
import { decodeUploadOrdinal, MAX_ANNOUNCE_DAYS, uploadsOn, type UploadSource, type UploadStreams } from './uploads.js';
import { uploadStreams } from './collabs.js';
import { generatedTimeline, kindBase, MAX_RECENT_VIDEOS, planVideos, viewsAt, type PublishedKind } from './video-model.js';
import { CATEGORIES, LANGUAGES, TITLE_ADJECTIVES, type CategoryDef, type ContentType, type LanguageDef } from './words.js';

export { MAX_RECENT_VIDEOS } from './video-model.js';
export const VIDEO_THUMBNAIL_HOST = 'i.tubekit-cdn.invalid';

const CATEGORY_BY_NAME = new Map<string, CategoryDef>(CATEGORIES.map((c) => [c.name, c]));
const LANGUAGE_BY_CODE = new Map<string, LanguageDef>(LANGUAGES.map((l) => [l.code, l]));
const TITLE_NUMBERS = ['3', '5', '7', '10', '12', '24', '30', '50', '100'];

/** The lean facts of one video (no text). */
export interface VideoFact {
  ordinal: number;
  kind: PublishedKind;
  publishedMs: number;
  announcedMs: number;
  potential: number;
}

/** A published video's figures at some instant, for scans over many channels (alerts). */
export type { VideoStat };

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}

function videoTitle(rng: Rng, lang: LanguageDef | undefined, cat: CategoryDef, short: boolean, year: number): string {
  const values = {
    thing: '',
    n: rng.pick(TITLE_NUMBERS),
    year: String(year),
    adj: rng.pick(TITLE_ADJECTIVES),
  };
  values.thing = fill(rng.pick(cat.things), values);
  if (lang?.videoTitles && rng.chance(0.7)) {
    return fill(rng.pick(lang.videoTitles), values) + (short ? ' #shorts' : '');
  }
  return fill(rng.pick(short ? cat.shortTitles : cat.videoTitles), values);
}

/** Derives videos for one world (seed + reference date). */
export class VideoDeriver {
  readonly keys: IdKeys;
  readonly uploads: UploadStreams;
  private readonly timelineStream: number;
  private readonly detailStream: number;

  constructor(seed: string, private readonly refDay: number) {
    this.timelineStream = streamSeed(seed, 'videos');
    this.detailStream = streamSeed(seed, 'video-details');
    this.uploads = uploadStreams(seed);
    this.keys = idKeys(seed, 'video');
  }

  source(ch: ChannelCore): UploadSource {
    return {
      idx: ch.idx,
      content_type: ch.content_type,
      upload_rate: ch.state.upload_rate,
      typical_views: ch.state.typical_views,
      noise: ch.model.noise,
      collab_share: ch.state.collab_share,
      firstDay: Math.max(this.refDay, Math.floor(Date.parse(ch.created_at) / DAY_MS)) + 1,
    };
  }

  /** The videos the channel showed on the reference date, newest first (none for later channels). */
  generated(ch: ChannelCore): VideoFact[] {
    if (ch.state.origin_videos === 0) return [];
    const createdDay = Math.floor(Date.parse(ch.created_at) / DAY_MS);
    const timeline = generatedTimeline(this.timelineStream, { idx: ch.idx, content_type: ch.content_type, origin_videos: ch.state.origin_videos, createdDay }, this.refDay);
    return timeline.map((video) => ({
      ordinal: video.ordinal,
      kind: video.kind,
      publishedMs: video.publishedMs,
      announcedMs: video.publishedMs,
      potential: ch.state.typical_views * kindBase(ch.content_type, video.kind) * video.factor,
    }));
  }

  /**
   * The channel's own videos visible at `nowMs`: announced premieres not yet published (soonest
   * last, i.e. newest first) and the newest published ones (at most `limit`), newest first.
   */
  ownVideos(ch: ChannelCore, nowMs: number, limit = MAX_RECENT_VIDEOS): { upcoming: VideoFact[]; published: VideoFact[] } {
    const source = this.source(ch);
    const today = Math.floor(nowMs / DAY_MS);
    const upcoming: VideoFact[] = [];
    for (let day = Math.max(today, source.firstDay); day <= today + MAX_ANNOUNCE_DAYS; day++) {
      for (const upload of uploadsOn(this.uploads, source, this.refDay, day)) {
        if (upload.announcedMs <= nowMs && upload.publishedMs > nowMs) upcoming.push(upload);
      }
    }
    upcoming.sort((a, b) => b.publishedMs - a.publishedMs);
    const published: VideoFact[] = [];
    for (let day = today; day >= source.firstDay && published.length < limit; day--) {
      const uploads = uploadsOn(this.uploads, source, this.refDay, day);
      for (let k = uploads.length - 1; k >= 0 && published.length < limit; k--) {
        if (uploads[k]!.publishedMs <= nowMs) published.push(uploads[k]!);
      }
    }
    if (published.length < limit) published.push(...this.generated(ch).slice(0, limit - published.length));
    return { upcoming, published };
  }

  /** One video's facts by ordinal, or null when it does not exist or is not yet announced. */
  fact(ch: ChannelCore, ordinal: number, nowMs: number): VideoFact | null {
    const upload = decodeUploadOrdinal(this.refDay, ordinal);
    if (!upload) return this.generated(ch).find((video) => video.ordinal === ordinal) ?? null;
    const found = uploadsOn(this.uploads, this.source(ch), this.refDay, upload.day)[upload.slot];
    return found && found.announcedMs <= nowMs ? found : null;
  }

  stat(ch: ChannelCore, fact: VideoFact, nowMs: number): VideoStat {
    return {
      video_id: encodeVideoId(this.keys, ch.idx, fact.ordinal),
      ordinal: fact.ordinal,
      kind: fact.kind,
      published_ms: fact.publishedMs,
      views: viewsAt(fact.potential, fact.kind, nowMs - fact.publishedMs),
    };
  }

  /** The full platform video: title, length, figures at `nowMs` (an upcoming one has none yet). */
  video(ch: ChannelCore, fact: VideoFact, nowMs: number, collaborators: string[]): WorldVideo {
    const rng = rngFor(this.detailStream, mix32(ch.idx, fact.ordinal));
    const cat = CATEGORY_BY_NAME.get(ch.category) ?? CATEGORIES[0]!;
    const lang = LANGUAGE_BY_CODE.get(ch.language_code);
    const short = fact.kind === 'short';
    const likeRate = clamp(rng.logNormal(0.03, 0.5), 0.002, 0.2);
    const commentRate = clamp(rng.logNormal(0.04, 0.7), 0, 0.5);
    const longMedian = ch.category === 'Music' ? 240 : ch.category === 'Kids' ? 900 : 720;
    const duration = short ? rng.int(8, 60) : clamp(Math.round(rng.logNormal(longMedian, 0.6)), 180, 5400);
    const title = videoTitle(rng, lang, cat, short, new Date(fact.publishedMs).getUTCFullYear());
    const upcoming = fact.publishedMs > nowMs;
    const views = upcoming ? 0 : viewsAt(fact.potential, fact.kind, nowMs - fact.publishedMs);
    const likes = Math.floor(views * likeRate);
    const videoId = encodeVideoId(this.keys, ch.idx, fact.ordinal);
    return {
      video_id: videoId,
      channel_id: ch.channel_id,
      kind: upcoming ? 'upcoming' : fact.kind,
      title,
      views,
      likes,
      comments: ch.category === 'Kids' ? 0 : Math.floor(likes * commentRate),
      duration_seconds: upcoming ? 0 : duration,
      published_at: msToTimestamp(fact.publishedMs),
      thumbnail_url: `https://${VIDEO_THUMBNAIL_HOST}/vi/${videoId}/hqdefault.jpg`,
      ordinal: fact.ordinal,
      collaborators,
    };
  }

  /** Owning channel index and ordinal encoded in a video id (not validated against the world). */
  decode(videoId: string): { channelIndex: number; ordinal: number } | null {
    return decodeVideoId(this.keys, videoId);
  }
}

export const videosEntity: WorldEntity = {
  name: 'videos',
  createTables() {
    // Lazy: no table (see the module comment).
  },
  generate(ctx: GenerationContext) {
    const stream = streamSeed(ctx.params.seed, 'videos');
    const rows = ctx.db
      .prepare('SELECT idx, content_type, video_count FROM world_channels ORDER BY idx')
      .raw()
      .iterate() as IterableIterator<[number, ContentType, number]>;
    let total = 0;
    for (const [idx, contentType, videoCount] of rows) {
      const plan = planVideos(rngFor(stream, idx), contentType, videoCount);
      total += plan.long + plan.short;
    }
    ctx.meta.video_count = total;
  },
  createIndexes(_db: Database.Database) {},
};
