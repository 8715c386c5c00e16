/**
 * Read API over the deterministic sample world (the "video platform" the
 * engine talks to when it is not talking to the real one).
 *
 * Instances cache prepared statements and recently derived video lists; after
 * `regenerate` use the returned instance (older instances see stale caches).
 */
import type Database from 'better-sqlite3';
import { readAdPages, type AdPage } from './ad-pages.js';
import { rowToChannel, TIER_MIN_SUBSCRIBERS, type ChannelRow } from './channels.js';
import { dayNumber, todayUtc } from './dates.js';
import {
  ensureWorld,
  generateWorld,
  metaToInfo,
  normalizeOptions,
  readWorldMeta,
} from './generate.js';
import type { ChannelVideosOptions, PlatformProvider } from './platform.js';
import { externalMonetizationOf, type ExternalMonetizationTruth } from './external-monetization.js';
import { SampleNetworks } from './networks.js';
import { DEFAULT_HISTORY_DAYS, dailyStatsFor, deltasFor, growthFor } from './stats.js';
import type { DailyStat, Deltas, Growth, WorldChannel, WorldInfo, WorldOptions, WorldVideo } from './types.js';
import { TerminatedReader } from './terminated/reader.js';
import { captionSource, transcriptFor, type CaptionSource, type Transcript } from './transcripts.js';
import { VideoDeriver } from './videos.js';

const HANDLE_RE = /^[a-z0-9._-]{3,30}$/;

/**
 * Canonical stored form of a handle ("@" + lowercase) from user input:
 * "@Name", "name", "youtube.com/@Name/videos"... Null when it cannot be a handle.
 */
export function normalizeHandle(input: string): string | null {
  let h = input.trim();
  const at = h.lastIndexOf('/@');
  if (at >= 0) h = h.slice(at + 1).split(/[/?#]/, 1)[0];
  h = h.replace(/^@+/, '').toLowerCase();
  return HANDLE_RE.test(h) ? '@' + h : null;
}

/** Tier interleaving pattern for sampleChannels (0 = 1M+ ... 4 = < 1k subscribers). */
const SAMPLE_PATTERN = [0, 2, 3, 1, 4, 2, 3, 0, 4, 1, 3, 2, 4, 3];
const VIDEO_CACHE_SIZE = 1024;

type ChannelRef = WorldChannel | string;

/** A video listed by `tubekit engine sample videos`. */
export interface SampleVideo {
  video_id: string;
  channel_id: string;
  title: string;
  duration_seconds: number;
  kind: WorldVideo['kind'];
  /** Which captions the video carries: human-authored, auto-generated, or none. */
  captions: CaptionSource | null;
  url: string;
}

export class SampleWorld implements PlatformProvider {
  readonly source = 'sample';
  readonly networks: SampleNetworks;
  private readonly db: Database.Database;
  private readonly meta: Record<string, string>;
  private readonly refDay: number;
  private readonly deriver: VideoDeriver;
  private readonly tierCounts: number[];
  private readonly videoCache = new Map<number, WorldVideo[]>();
  private terminatedReader?: TerminatedReader;
  private readonly stmts: {
    byId: Database.Statement<[string], ChannelRow>;
    byHandle: Database.Statement<[string], ChannelRow>;
    byIdx: Database.Statement<[number], ChannelRow>;
    tierPage: Database.Statement<[number, number, number], ChannelRow>;
  };

  /** Opens the world stored in `db`; throws if there is none (see `ensure`). */
  constructor(db: Database.Database) {
    const meta = readWorldMeta(db);
    if (!meta) throw new Error('no sample world in this database (use SampleWorld.ensure)');
    this.db = db;
    this.meta = meta;
    this.refDay = dayNumber(meta.reference_date);
    this.deriver = new VideoDeriver(meta.seed, this.refDay);
    this.tierCounts = meta.tier_counts ? (JSON.parse(meta.tier_counts) as number[]) : [];
    this.networks = new SampleNetworks(db, [meta.seed, meta.channel_count, meta.generator_version, meta.generated_at].join('|'));
    this.stmts = {
      byId: db.prepare('SELECT * FROM world_channels WHERE channel_id = ?'),
      byHandle: db.prepare('SELECT * FROM world_channels WHERE handle = ?'),
      byIdx: db.prepare('SELECT * FROM world_channels WHERE idx = ?'),
      tierPage: db.prepare('SELECT * FROM world_channels WHERE tier = ? ORDER BY idx LIMIT ? OFFSET ?'),
    };
  }

  /** Generate the world if missing or made with other parameters/generator version, then open it. */
  static ensure(db: Database.Database, opts: WorldOptions): SampleWorld {
    ensureWorld(db, opts);
    return new SampleWorld(db);
  }

  /** Unconditionally regenerate. */
  static regenerate(db: Database.Database, opts: WorldOptions): SampleWorld {
    const want = normalizeOptions(opts);
    generateWorld(db, { seed: want.seed, channels: want.channels, terminated: want.terminated, referenceDate: want.referenceDate ?? todayUtc() });
    return new SampleWorld(db);
  }

  /** The world stored in `db`, or null. */
  static open(db: Database.Database): SampleWorld | null {
    return readWorldMeta(db) ? new SampleWorld(db) : null;
  }

  info(): WorldInfo {
    return metaToInfo(this.meta);
  }

  /** Terminated channels: keyword search with filters and sorts (terminated/reader.ts). */
  get terminated(): TerminatedReader {
    this.terminatedReader ??= new TerminatedReader(
      this.db,
      this.meta.seed,
      this.refDay,
      Number(this.meta.terminated_count ?? 0),
      Number(this.meta.terminated_longest_name ?? 0),
    );
    return this.terminatedReader;
  }

  /** The world's "today" ('YYYY-MM-DD'). */
  get referenceDate(): string {
    return this.meta.reference_date;
  }

  channelCount(): number {
    return Number(this.meta.channel_count);
  }

  channelById(channelId: string): WorldChannel | null {
    const row = this.stmts.byId.get(channelId);
    return row ? rowToChannel(row) : null;
  }

  /** Case-insensitive; accepts "@handle", "handle" or a URL ending in "/@handle". */
  channelByHandle(handle: string): WorldChannel | null {
    const h = normalizeHandle(handle);
    if (!h) return null;
    const row = this.stmts.byHandle.get(h);
    return row ? rowToChannel(row) : null;
  }

  /** PlatformProvider name for channelByHandle. */
  resolveHandle(handle: string): WorldChannel | null {
    return this.channelByHandle(handle);
  }

  /** Channel by its 0-based position in the world. */
  channelByIndex(idx: number): WorldChannel | null {
    if (!Number.isInteger(idx) || idx < 0) return null;
    const row = this.stmts.byIdx.get(idx);
    return row ? rowToChannel(row) : null;
  }

  private resolve(ref: ChannelRef): WorldChannel | null {
    return typeof ref === 'string' ? this.channelById(ref) : ref;
  }

  private allVideos(ch: WorldChannel): WorldVideo[] {
    const cached = this.videoCache.get(ch.idx);
    if (cached) {
      this.videoCache.delete(ch.idx);
      this.videoCache.set(ch.idx, cached);
      return cached;
    }
    const list = this.deriver.videos(ch);
    this.videoCache.set(ch.idx, list);
    if (this.videoCache.size > VIDEO_CACHE_SIZE) {
      this.videoCache.delete(this.videoCache.keys().next().value as number);
    }
    return list;
  }

  videoById(videoId: string): WorldVideo | null {
    const decoded = this.deriver.decode(videoId);
    if (!decoded || decoded.channelIndex >= this.channelCount()) return null;
    const ch = this.channelByIndex(decoded.channelIndex);
    if (!ch) return null;
    const v = this.allVideos(ch)[decoded.ordinal];
    return v && v.video_id === videoId ? { ...v } : null;
  }

  /** Recent videos newest first (upcoming ones first); [] for an unknown channel. */
  channelVideos(channel: ChannelRef, options: ChannelVideosOptions = {}): WorldVideo[] {
    const ch = this.resolve(channel);
    if (!ch) return [];
    let list = this.allVideos(ch);
    if (options.kind) list = list.filter((v) => v.kind === options.kind);
    if (options.limit !== undefined) list = list.slice(0, Math.max(0, options.limit));
    return list.map((v) => ({ ...v }));
  }

  /** The video's captions (English, human or auto-generated), or null when it has none. */
  transcript(videoId: string): Transcript | null {
    const video = this.videoById(videoId);
    const channel = video && this.channelById(video.channel_id);
    return video && channel ? transcriptFor(this.meta.seed, video, channel) : null;
  }

  /** The channel's newest longform watch pages as a live read at `atMs` finds them (ad-pages.ts). */
  readAdPages(channel: ChannelRef, atMs: number): AdPage[] {
    const ch = this.resolve(channel);
    return ch ? readAdPages(this.meta.seed, ch, this.allVideos(ch), atMs) : [];
  }

  /** What the channel sells outside the platform (external-monetization.ts). */
  externalMonetization(channel: ChannelRef): ExternalMonetizationTruth | null {
    const ch = this.resolve(channel);
    return ch ? externalMonetizationOf(this.meta.seed, ch, this.allVideos(ch)) : null;
  }

  /**
   * Published videos to try commands with: from the varied channel sample, taking turns between
   * long videos with human captions, shorts, and long videos with auto captions or none, so the
   * first few already show every kind. With `channel`, that channel's videos (upcoming included).
   */
  sampleVideos(limit: number, channel?: ChannelRef): SampleVideo[] {
    if (!(limit > 0)) return [];
    if (channel !== undefined) {
      const owner = this.resolve(channel);
      if (!owner) return [];
      return this.channelVideos(owner, { limit }).map((video) => this.describeSample(video, owner));
    }
    const wanted: Array<(video: SampleVideo) => boolean> = [
      (video) => video.kind === 'long' && video.captions === 'human',
      (video) => video.kind === 'short',
      (video) => video.kind === 'long' && video.captions !== 'human',
    ];
    const picked: SampleVideo[] = [];
    const seen = new Set<string>();
    const channels = this.sampleChannels(Math.min(this.channelCount(), Math.max(40, limit * 4)));
    for (let round = 0; picked.length < limit && round < 4; round += 1) {
      for (const owner of channels) {
        if (picked.length >= limit) break;
        const want = wanted[picked.length % wanted.length]!;
        const candidates = this.channelVideos(owner).map((video) => this.describeSample(video, owner));
        const match = candidates.find((video) => video.kind !== 'upcoming' && !seen.has(video.video_id) && (round > 1 || want(video)));
        if (!match) continue;
        seen.add(match.video_id);
        picked.push(match);
      }
    }
    return picked;
  }

  private describeSample(video: WorldVideo, owner: WorldChannel): SampleVideo {
    return {
      video_id: video.video_id,
      channel_id: owner.channel_id,
      title: video.title,
      duration_seconds: video.duration_seconds,
      kind: video.kind,
      captions: captionSource(this.meta.seed, video, owner),
      url: video.kind === 'short' ? `https://www.youtube.com/shorts/${video.video_id}` : `https://www.youtube.com/watch?v=${video.video_id}`,
    };
  }

  /**
   * Daily history, oldest first, between two 'YYYY-MM-DD' dates (inclusive),
   * clipped to the channel's creation date and the reference date. Defaults to
   * the last 60 days. The last entry equals the channel's current totals.
   */
  dailyStats(channel: ChannelRef, fromDate?: string, toDate?: string): DailyStat[] {
    const ch = this.resolve(channel);
    if (!ch) return [];
    const to = toDate ? dayNumber(toDate) : this.refDay;
    const from = fromDate ? dayNumber(fromDate) : to - DEFAULT_HISTORY_DAYS + 1;
    return dailyStatsFor(ch, this.refDay, dayNumber(ch.created_at), from, to);
  }

  /** Absolute gains over the last `days` days (e.g. 1, 2, 7, 30). */
  growth(channel: ChannelRef, days: number): Growth | null {
    const ch = this.resolve(channel);
    return ch ? growthFor(ch, this.refDay, dayNumber(ch.created_at), days) : null;
  }

  deltas(channel: ChannelRef): Deltas | null {
    const ch = this.resolve(channel);
    return ch ? deltasFor(ch, this.refDay) : null;
  }

  /**
   * A varied, stable selection of channels: size tiers interleaved (a few
   * 1M+ channels, some mid-sized, several small ones) and, within a tier,
   * world order (which mixes languages and categories). Pages with offset.
   */
  sampleChannels(limit: number, offset = 0): WorldChannel[] {
    if (!(limit > 0) || offset < 0) return [];
    const remaining = TIER_MIN_SUBSCRIBERS.map((_, t) => this.tierCounts[t] ?? 0);
    const before = remaining.map(() => 0); // per tier: taken before `offset`
    const inPage = remaining.map(() => 0);
    const sequence: number[] = [];
    let left = remaining.reduce((a, b) => a + b, 0);
    for (let pos = 0, slot = 0; pos < offset + limit && left > 0; slot++) {
      const tier = SAMPLE_PATTERN[slot % SAMPLE_PATTERN.length];
      if (remaining[tier] === 0) continue;
      remaining[tier]--;
      left--;
      if (pos < offset) before[tier]++;
      else {
        inPage[tier]++;
        sequence.push(tier);
      }
      pos++;
    }
    const fetched = inPage.map((n, tier) => (n > 0 ? this.stmts.tierPage.all(tier, n, before[tier]) : []));
    const cursor = inPage.map(() => 0);
    return sequence.map((tier) => rowToChannel(fetched[tier][cursor[tier]++]));
  }
}
