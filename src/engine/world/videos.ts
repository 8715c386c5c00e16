/**
 * Videos: derived lazily, never stored.
 *
 * A channel's recent videos are a pure function of (seed, channel row): the
 * stream rngFor(streamSeed(seed, 'videos'), channel idx) first decides how
 * many long / short / upcoming videos the channel shows (`planVideos`), then
 * their dates, numbers and titles. A video's id encodes (channel idx,
 * ordinal) through a keyed permutation (ids.ts), so `videoById` decodes the
 * id, loads one channel row and re-derives its list: it works for every
 * video of every world size without a video table (a 1M-channel world would
 * otherwise need ~13M video rows).
 *
 * The only thing computed at generation time is the total count for
 * world_meta.video_count (a scan of the channel rows running planVideos).
 */
import type Database from 'better-sqlite3';
import { DAY_MS, dayNumber, msToTimestamp } from './dates.js';
import type { GenerationContext, WorldEntity } from './entity.js';
import { decodeVideoId, encodeVideoId, idKeys, type IdKeys } from './ids.js';
import { clamp, Rng, rngFor, streamSeed } from './prng.js';
import type { WorldChannel, WorldVideo } from './types.js';
import { CATEGORIES, LANGUAGES, TITLE_ADJECTIVES, type CategoryDef, type ContentType, type LanguageDef } from './words.js';

export const MAX_RECENT_VIDEOS = 20;
export const VIDEO_THUMBNAIL_HOST = 'i.tubekit-cdn.invalid';

const CATEGORY_BY_NAME = new Map<string, CategoryDef>(CATEGORIES.map((c) => [c.name, c]));
const LANGUAGE_BY_CODE = new Map<string, LanguageDef>(LANGUAGES.map((l) => [l.code, l]));
const TITLE_NUMBERS = ['3', '5', '7', '10', '12', '24', '30', '50', '100'];

export interface VideoPlan {
  long: number;
  short: number;
  upcoming: number;
}

/** How many videos of each kind a channel shows. Consumes the first draws of the channel's video stream. */
export function planVideos(rng: Rng, contentType: ContentType, videoCount: number): VideoPlan {
  let long: number;
  let short: number;
  let upcoming: number;
  if (contentType === 'longform') {
    long = rng.int(6, 14);
    short = rng.chance(0.35) ? rng.int(1, 3) : 0;
    upcoming = rng.chance(0.07) ? 1 : 0;
  } else if (contentType === 'shorts') {
    short = rng.int(10, 20);
    long = rng.chance(0.3) ? rng.int(1, 2) : 0;
    upcoming = rng.chance(0.02) ? 1 : 0;
  } else {
    long = rng.int(4, 9);
    short = rng.int(4, 10);
    upcoming = rng.chance(0.06) ? 1 : 0;
  }
  if (long + short > MAX_RECENT_VIDEOS) short = MAX_RECENT_VIDEOS - long;
  const published = long + short;
  if (published > videoCount) {
    long = Math.round((long * videoCount) / published);
    short = videoCount - long;
  }
  return { long, short, upcoming };
}

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
  private readonly stream: number;
  readonly keys: IdKeys;
  private readonly nowMs: number;
  private readonly refDay: number;

  constructor(seed: string, refDay: number) {
    this.stream = streamSeed(seed, 'videos');
    this.keys = idKeys(seed, 'video');
    this.refDay = refDay;
    // "Now" is the last second of the reference day.
    this.nowMs = (refDay + 1) * DAY_MS - 1000;
  }

  plan(idx: number, contentType: ContentType, videoCount: number): VideoPlan {
    return planVideos(rngFor(this.stream, idx), contentType, videoCount);
  }

  /** All recent videos of a channel, newest first (upcoming first); `ordinal` is the list position. */
  videos(ch: WorldChannel): WorldVideo[] {
    const rng = rngFor(this.stream, ch.idx);
    const plan = planVideos(rng, ch.content_type, ch.video_count);
    const cat = CATEGORY_BY_NAME.get(ch.category) ?? CATEGORIES[0];
    const lang = LANGUAGE_BY_CODE.get(ch.language_code);
    const kinds: Array<'long' | 'short'> = rng.shuffle([
      ...Array<'long'>(plan.long).fill('long'),
      ...Array<'short'>(plan.short).fill('short'),
    ]);

    // Publication times: exponential gaps around the channel's upload cadence,
    // squeezed if needed so that every video is younger than the channel.
    const ageDays = this.refDay - dayNumber(ch.created_at);
    const meanGap = clamp((ageDays / Math.max(1, ch.video_count)) * rng.logNormal(1, 0.4), 0.1, 90);
    const gaps: number[] = [];
    let span = 0;
    for (let i = 0; i < kinds.length; i++) {
      const gap = i === 0 ? rng.exponential(meanGap * 0.6) : rng.exponential(meanGap) + 0.02;
      gaps.push(gap);
      span += gap;
    }
    const squeeze = span > ageDays - 1 ? (ageDays - 1) / span : 1;

    const avgViews = ch.total_views / Math.max(1, ch.video_count);
    const shortBase = ch.content_type === 'shorts' ? 1 : ch.content_type === 'mixed' ? 0.7 : 0.35;
    const longBase = ch.content_type === 'shorts' ? 0.5 : 1;
    const longMedian = ch.category === 'Music' ? 240 : ch.category === 'Kids' ? 900 : 720;

    const published: WorldVideo[] = [];
    let back = 0;
    let viewSum = 0;
    for (let i = 0; i < kinds.length; i++) {
      back += gaps[i] * squeeze;
      const t = this.nowMs - back * DAY_MS;
      const age = (this.nowMs - t) / DAY_MS;
      const short = kinds[i] === 'short';
      const maturity = 1 - Math.exp(-age / (short ? 1.5 : 4));
      const views = Math.floor(avgViews * (short ? shortBase : longBase) * rng.logNormal(1, short ? 1.1 : 0.8) * maturity);
      const likes = Math.floor(views * clamp(rng.logNormal(0.03, 0.5), 0.002, 0.2));
      const commentRate = clamp(rng.logNormal(0.04, 0.7), 0, 0.5);
      const comments = ch.category === 'Kids' ? 0 : Math.floor(likes * commentRate);
      const duration = short ? rng.int(8, 60) : clamp(Math.round(rng.logNormal(longMedian, 0.6)), 180, 5400);
      const title = videoTitle(rng, lang, cat, short, new Date(t).getUTCFullYear());
      viewSum += views;
      published.push({
        video_id: '',
        channel_id: ch.channel_id,
        kind: kinds[i],
        title,
        views,
        likes,
        comments,
        duration_seconds: duration,
        published_at: msToTimestamp(t),
        thumbnail_url: '',
        ordinal: 0,
      });
    }
    // Recent videos never account for more than half of the channel's views.
    const cap = ch.total_views * 0.5;
    if (viewSum > cap) {
      const f = cap / viewSum;
      for (const v of published) {
        v.views = Math.floor(v.views * f);
        v.likes = Math.floor(v.likes * f);
        v.comments = Math.floor(v.comments * f);
      }
    }

    const upcoming: WorldVideo[] = [];
    for (let i = 0; i < plan.upcoming; i++) {
      const t = (this.refDay + 1 + rng.int(0, 13)) * DAY_MS + rng.int(0, 86_399) * 1000;
      upcoming.push({
        video_id: '',
        channel_id: ch.channel_id,
        kind: 'upcoming',
        title: videoTitle(rng, lang, cat, false, new Date(t).getUTCFullYear()),
        views: 0,
        likes: 0,
        comments: 0,
        duration_seconds: 0,
        published_at: msToTimestamp(t),
        thumbnail_url: '',
        ordinal: 0,
      });
    }
    upcoming.sort((a, b) => (a.published_at < b.published_at ? 1 : -1));

    const all = [...upcoming, ...published];
    all.forEach((v, ordinal) => {
      v.ordinal = ordinal;
      v.video_id = encodeVideoId(this.keys, ch.idx, ordinal);
      v.thumbnail_url = `https://${VIDEO_THUMBNAIL_HOST}/vi/${v.video_id}/hqdefault.jpg`;
    });
    return all;
  }

  /** Owning channel index and list position encoded in a video id (not validated against the world). */
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
    const deriver = new VideoDeriver(ctx.params.seed, ctx.refDay);
    const rows = ctx.db
      .prepare('SELECT idx, content_type, video_count FROM world_channels ORDER BY idx')
      .raw()
      .iterate() as IterableIterator<[number, ContentType, number]>;
    let total = 0;
    for (const [idx, contentType, videoCount] of rows) {
      const p = deriver.plan(idx, contentType, videoCount);
      total += p.long + p.short + p.upcoming;
    }
    ctx.meta.video_count = total;
  },
  createIndexes(_db: Database.Database) {},
};
