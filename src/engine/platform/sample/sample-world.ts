/**
 * Read API over the deterministic sample world (the "video platform" the engine talks to when it
 * is not talking to the real one), at the world's current time.
 *
 * The world time is read from world_meta on each call (cheap), so an instance sees advances made
 * by other processes; caches of derived videos are keyed by it. After `regenerate` use the
 * returned instance (older instances see stale caches).
 */
import type Database from 'better-sqlite3';
import type { ScanFilter } from '../../index/channels.js';
import type { TerminatedSeed } from '../../index/seed.js';
import { denseSource, TerminatedReader } from '../../index/terminated/reader.js';
import { SAMPLE_LAYOUT } from '../../index/terminated/schema.js';
import type { ChannelVideosOptions, PlatformProvider } from '../platform.js';
import type { SampleVideo, SimulatedWorld } from '../simulation.js';
import { advanceWorld, advanceWorldTo, type AdvanceReport } from './advance.js';
import { readAdPages, type AdPage } from './ad-pages.js';
import { rowToChannel, TIER_MIN_SUBSCRIBERS, type ChannelRow } from './channels.js';
import { CollabReader } from './collab-reader.js';
import { DAY_MS, dayNumber } from '../../dates.js';
import { ensureWorld, generateWorld, generationDate, metaToInfo, normalizeOptions, readWorldMeta } from './generate.js';
import { encodeChannelId, idKeys, type IdKeys } from './ids.js';
import { externalMonetizationOf, type ExternalMonetizationTruth } from './external-monetization.js';
import { SampleNetworks } from './networks.js';
import { DEFAULT_HISTORY_DAYS, dailyStatsFor, deltasFor, growthFor, totalsAt, type StatsSource } from './stats.js';
import type { ChannelCore, DailyStat, Deltas, Growth, WorldChannel, WorldInfo, WorldOptions, WorldVideo } from './types.js';
import { terminatedNaming } from './terminated/naming.js';
import { captionSource, transcriptFor, type CaptionSource, type Transcript } from './transcripts.js';
import { MAX_RECENT_VIDEOS, VideoDeriver, type VideoFact, type VideoStat } from './videos.js';
import type { PublishedKind } from './video-model.js';
import { CLOCK_META_KEY, originMs, parseClock, type WorldClockState } from './world-clock.js';
import { CATEGORIES, LANGUAGES } from './words.js';

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
/** Rows read per query when walking every channel. */
const SCAN_BATCH = 5000;

type ChannelRef = WorldChannel | string;
type CoreRef = ChannelCore | string;

/** Columns of a lean scan: what ChannelCore needs, read as raw arrays (much faster than objects). */
const CORE_COLUMNS = `idx, channel_id, handle, title, language, content_type, created_at, category, language_code, collab_scanned,
  sub_rate, view_rate, trend, volatility, noise,
  origin_videos, anchor_day, day_subs, day_views, typical_views, upload_rate, collab_share, last_long_ms, last_short_ms`;

type CoreValues = [
  idx: number, channel_id: string, handle: string, title: string, language: string, content_type: WorldChannel['content_type'],
  created_at: string, category: string, language_code: string, collab_scanned: number,
  sub_rate: number, view_rate: number, trend: number, volatility: number, noise: number,
  origin_videos: number, anchor_day: number, day_subs: number, day_views: number, typical_views: number, upload_rate: number,
  collab_share: number, last_long_ms: number, last_short_ms: number,
];

function valuesToCore(v: CoreValues): ChannelCore {
  return {
    idx: v[0],
    channel_id: v[1],
    handle: v[2],
    title: v[3],
    language: v[4],
    content_type: v[5],
    created_at: v[6],
    category: v[7],
    language_code: v[8],
    collab_scanned: v[9] === 1,
    model: { sub_rate: v[10], view_rate: v[11], trend: v[12], volatility: v[13], noise: v[14] },
    state: {
      origin_videos: v[15],
      anchor_day: v[16],
      day_subs: v[17],
      day_views: v[18],
      typical_views: v[19],
      upload_rate: v[20],
      collab_share: v[21],
      last_long_ms: v[22],
      last_short_ms: v[23],
    },
  };
}

export type { ScanFilter };

export type { SampleVideo };

export class SampleWorld implements PlatformProvider, SimulatedWorld {
  readonly source = 'sample';
  /** Collab listings (collabs.ts) at a given world time. */
  readonly collabs: CollabReader;
  readonly networks: SampleNetworks;
  private readonly db: Database.Database;
  private readonly meta: Record<string, string>;
  private readonly refDay: number;
  private readonly origin: number;
  private readonly seedChannels: number;
  private readonly deriver: VideoDeriver;
  private readonly channelKeys: IdKeys;
  private readonly tierCounts: number[];
  private readonly videoCache = new Map<number, WorldVideo[]>();
  private cachedAt = -1;
  private readonly scans = new Map<string, Database.Statement>();
  private clockThisTurn?: WorldClockState;
  private terminatedReader?: TerminatedReader;
  private readonly stmts: {
    byId: Database.Statement<[string], ChannelRow>;
    byHandle: Database.Statement<[string], ChannelRow>;
    byIdx: Database.Statement<[number], ChannelRow>;
    tierPage: Database.Statement<[number, number, number, number], ChannelRow>;
    batch: Database.Statement<[number, number], ChannelRow>;
    createdSince: Database.Statement<[number, string], ChannelRow>;
    clock: Database.Statement<[string], string>;
  };

  /** Opens the world stored in `db`; throws if there is none (see `ensure`). */
  constructor(db: Database.Database) {
    const meta = readWorldMeta(db);
    if (!meta) throw new Error('no sample world in this database (use SampleWorld.ensure)');
    this.db = db;
    this.meta = meta;
    this.refDay = dayNumber(meta.reference_date);
    this.origin = originMs(this.refDay);
    this.seedChannels = Number(meta.channel_count);
    this.deriver = new VideoDeriver(meta.seed, this.refDay);
    this.channelKeys = idKeys(meta.seed, 'channel');
    this.tierCounts = meta.tier_counts ? (JSON.parse(meta.tier_counts) as number[]) : [];
    this.collabs = new CollabReader(db, () => this.clockState().advanced_ms);
    // The edition names the world's content, which these four determine: data dirs holding the same
    // world (a fleet's servers) share one edition of the pre-checked verdicts in the shared store.
    this.networks = new SampleNetworks(db, [meta.seed, meta.channel_count, meta.generator_version, meta.reference_date].join('|'));
    this.stmts = {
      byId: db.prepare('SELECT * FROM world_channels WHERE channel_id = ?'),
      byHandle: db.prepare('SELECT * FROM world_channels WHERE handle = ?'),
      byIdx: db.prepare('SELECT * FROM world_channels WHERE idx = ?'),
      tierPage: db.prepare('SELECT * FROM world_channels WHERE tier = ? AND idx < ? ORDER BY idx LIMIT ? OFFSET ?'),
      batch: db.prepare('SELECT * FROM world_channels WHERE idx >= ? ORDER BY idx LIMIT ?'),
      createdSince: db.prepare('SELECT * FROM world_channels WHERE idx >= ? AND created_at >= ? ORDER BY idx'),
      clock: db.prepare<[string], string>('SELECT value FROM world_meta WHERE key = ?').pluck(),
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
    generateWorld(db, { seed: want.seed, channels: want.channels, terminated: want.terminated, referenceDate: generationDate(opts) });
    return new SampleWorld(db);
  }

  /** The world stored in `db`, or null. */
  static open(db: Database.Database): SampleWorld | null {
    return readWorldMeta(db) ? new SampleWorld(db) : null;
  }

  info(): WorldInfo {
    return metaToInfo(readWorldMeta(this.db) ?? this.meta);
  }

  /** The world is a simulated platform: its clock, parameters and things to try. */
  get simulation(): SimulatedWorld {
    return this;
  }

  /** The terminated database the world generated, seeding the index (index/terminated/). */
  terminatedSeed(): TerminatedSeed {
    return {
      naming: terminatedNaming(this.meta.seed),
      count: Number(this.meta.terminated_count ?? 0),
      longestName: Number(this.meta.terminated_longest_name ?? 0),
      // The world's "today": its reference day plus the whole days it has advanced.
      today: () => this.refDay + Math.floor(this.clockState().advanced_ms / DAY_MS),
    };
  }

  /** Terminated channels as the index searches them (index/terminated/reader.ts), for the world's own tests. */
  get terminated(): TerminatedReader {
    if (!this.terminatedReader) {
      this.terminatedReader = new TerminatedReader(this.db, denseSource(SAMPLE_LAYOUT, this.terminatedSeed()));
    }
    return this.terminatedReader;
  }

  /** The date the world was generated for ('YYYY-MM-DD'); its clock starts at the end of it. */
  get referenceDate(): string {
    return this.meta.reference_date;
  }

  /** Identifies this generation of the world (changes when it is regenerated, not when it moves). */
  get generatedAt(): string {
    return this.meta.generated_at;
  }

  /**
   * The stored clock, read at most once per turn of the event loop: calls within one synchronous
   * run (a scan over every channel) see one world time, and the next turn sees other processes' moves.
   */
  private clockState(): WorldClockState {
    if (!this.clockThisTurn) {
      this.clockThisTurn = parseClock(this.stmts.clock.get(CLOCK_META_KEY));
      setImmediate(() => {
        this.clockThisTurn = undefined;
      });
    }
    return this.clockThisTurn;
  }

  /** The world's current time (ms since the epoch). */
  nowMs(): number {
    return this.origin + this.clockState().advanced_ms;
  }

  /** Moves the world's clock forward by `ms` (1 minute to 366 days); see advance.ts. */
  advance(ms: number): AdvanceReport {
    this.clockThisTurn = undefined;
    try {
      return advanceWorld({ db: this.db, seed: this.meta.seed, refDay: this.refDay, seedChannels: this.seedChannels, uploads: this.deriver.uploads }, ms);
    } finally {
      this.clockThisTurn = undefined;
    }
  }

  /**
   * Moves the clock until `total` ms have been advanced since generation, from wherever it is
   * (a fleet's world catching up with the fleet's clock: shared-world.ts).
   */
  advanceTo(total: number): void {
    this.clockThisTurn = undefined;
    try {
      advanceWorldTo({ db: this.db, seed: this.meta.seed, refDay: this.refDay, seedChannels: this.seedChannels, uploads: this.deriver.uploads }, total);
    } finally {
      this.clockThisTurn = undefined;
    }
  }

  /** Channels now in the world: generated plus arrived since the reference date. */
  channelCount(): number {
    return this.seedChannels + this.clockState().arrived_channels;
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

  /** PlatformProvider name for channelByHandle; a legacy `/c/` or `/user/` URL names the handle of the same name here. */
  resolveHandle(handle: string): WorldChannel | null {
    const legacy = /\/(?:c|user)\/([^/?#]+)/.exec(handle);
    return this.channelByHandle(legacy ? decodeURIComponent(legacy[1]!) : handle);
  }

  /** Channel by its 0-based position in the world. */
  channelByIndex(idx: number): WorldChannel | null {
    if (!Number.isInteger(idx) || idx < 0) return null;
    const row = this.stmts.byIdx.get(idx);
    return row ? rowToChannel(row) : null;
  }

  /** Channel id of an index, without a lookup. */
  channelIdOf(idx: number): string {
    return encodeChannelId(this.channelKeys, idx);
  }

  /** Every channel, in index order (read in batches, so callers may query the world meanwhile). */
  *eachChannel(): IterableIterator<WorldChannel> {
    for (let from = 0; ; ) {
      const rows = this.stmts.batch.all(from, SCAN_BATCH);
      for (const row of rows) yield rowToChannel(row);
      if (rows.length < SCAN_BATCH) return;
      from = rows[rows.length - 1]!.idx + 1;
    }
  }

  /** Channels as lean ChannelCores (no texts), narrowed in SQL: for world-wide scans (alerts). */
  *scanChannels(filter: ScanFilter = {}): IterableIterator<ChannelCore> {
    const conditions = ['idx >= @from'];
    const params: Record<string, unknown> = { limit: SCAN_BATCH };
    if (filter.contentTypes) {
      conditions.push(`content_type IN (${filter.contentTypes.map((_, i) => `@type${i}`).join(', ')})`);
      filter.contentTypes.forEach((type, i) => (params[`type${i}`] = type));
    }
    if (filter.publishedAfter) {
      conditions.push(filter.publishedAfter.kind === 'long' ? 'last_long_ms > @after' : 'last_short_ms > @after');
      params.after = filter.publishedAfter.ms;
    }
    if (filter.createdBy) {
      conditions.push('created_at <= @created_by');
      params.created_by = filter.createdBy;
    }
    const sql = `SELECT ${CORE_COLUMNS} FROM world_channels WHERE ${conditions.join(' AND ')} ORDER BY idx LIMIT @limit`;
    let statement = this.scans.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql).raw();
      this.scans.set(sql, statement);
    }
    for (let from = 0; ; ) {
      const rows = statement.all({ ...params, from }) as CoreValues[];
      for (const row of rows) yield valuesToCore(row);
      if (rows.length < SCAN_BATCH) return;
      from = rows[rows.length - 1]![0] + 1;
    }
  }

  /** Channels that appeared on or after a date ('YYYY-MM-DD'; only later arrivals can be that young). */
  channelsCreatedSince(date: string): WorldChannel[] {
    return this.stmts.createdSince.all(date > this.referenceDate ? this.seedChannels : 0, date).map(rowToChannel);
  }

  /** The platform's languages (name and ISO code) and categories, for validating filters. */
  languages(): ReadonlyArray<{ name: string; code: string }> {
    return LANGUAGES.map((language) => ({ name: language.name, code: language.code }));
  }

  categories(): readonly string[] {
    return CATEGORIES.map((category) => category.name);
  }

  private resolve(ref: ChannelRef): WorldChannel | null {
    return typeof ref === 'string' ? this.channelById(ref) : ref;
  }

  private resolveCore(ref: CoreRef): ChannelCore | null {
    return typeof ref === 'string' ? this.channelById(ref) : ref;
  }

  private statsSource(ch: ChannelCore): StatsSource {
    const createdDay = Math.floor(Date.parse(ch.created_at) / DAY_MS);
    return {
      model: ch.model,
      createdDay,
      arrival: createdDay > this.refDay,
      anchorDay: ch.state.anchor_day,
      anchorSubs: ch.state.day_subs,
      anchorViews: ch.state.day_views,
    };
  }

  /** Channel ids a video is listed under besides its host. */
  private collaboratorsOf(host: WorldChannel, videoId: string): string[] {
    if (host.state.collab_share <= 0) return [];
    return this.collabs.members(videoId).filter((idx) => idx !== host.idx).map((idx) => this.channelIdOf(idx));
  }

  private dress(host: WorldChannel, fact: VideoFact, now: number): WorldVideo {
    const base = this.deriver.video(host, fact, now, []);
    base.collaborators = this.collaboratorsOf(host, base.video_id);
    return base;
  }

  private allVideos(ch: WorldChannel): WorldVideo[] {
    const now = this.nowMs();
    if (now !== this.cachedAt) {
      this.videoCache.clear();
      this.cachedAt = now;
    }
    const cached = this.videoCache.get(ch.idx);
    if (cached) {
      this.videoCache.delete(ch.idx);
      this.videoCache.set(ch.idx, cached);
      return cached;
    }
    const list = this.deriveList(ch, now);
    this.videoCache.set(ch.idx, list);
    if (this.videoCache.size > VIDEO_CACHE_SIZE) {
      this.videoCache.delete(this.videoCache.keys().next().value as number);
    }
    return list;
  }

  /** Own videos plus collab videos other channels host with this one, as the platform lists them. */
  private deriveList(ch: WorldChannel, now: number): WorldVideo[] {
    const own = this.deriver.ownVideos(ch, now);
    const upcoming = own.upcoming.map((fact) => this.dress(ch, fact, now));
    const published = own.published.map((fact) => this.dress(ch, fact, now));
    for (const listing of this.collabs.listedAsCollaborator(ch.idx, now)) {
      const video = this.videoById(listing.video_id);
      if (!video) continue;
      (video.kind === 'upcoming' ? upcoming : published).push(video);
    }
    const newestFirst = (a: WorldVideo, b: WorldVideo) => (a.published_at < b.published_at ? 1 : a.published_at > b.published_at ? -1 : 0);
    upcoming.sort(newestFirst);
    published.sort(newestFirst);
    return [...upcoming, ...published.slice(0, MAX_RECENT_VIDEOS)];
  }

  /** The channel's list without the collabs other channels host: its own watch pages. */
  private ownVideos(ch: WorldChannel): WorldVideo[] {
    return this.allVideos(ch).filter((video) => video.channel_id === ch.channel_id);
  }

  videoById(videoId: string): WorldVideo | null {
    const decoded = this.deriver.decode(videoId);
    if (!decoded || decoded.channelIndex >= this.channelCount()) return null;
    const ch = this.channelByIndex(decoded.channelIndex);
    if (!ch) return null;
    const now = this.nowMs();
    const fact = this.deriver.fact(ch, decoded.ordinal, now);
    if (!fact) return null;
    const video = this.dress(ch, fact, now);
    return video.video_id === videoId ? video : null;
  }

  /** Recent videos newest first (upcoming ones first), collabs it is listed on included; [] for an unknown channel. */
  channelVideos(channel: ChannelRef, options: ChannelVideosOptions = {}): WorldVideo[] {
    const ch = this.resolve(channel);
    if (!ch) return [];
    let list = this.allVideos(ch);
    if (options.kind) list = list.filter((v) => v.kind === options.kind);
    if (options.limit !== undefined) list = list.slice(0, Math.max(0, options.limit));
    return list.map((v) => ({ ...v, collaborators: [...v.collaborators] }));
  }

  /**
   * Lean figures of the channel's own newest published videos (no titles; collabs it is only
   * listed on are left out), newest first — for scans over many channels.
   */
  recentVideoStats(channel: CoreRef, kind?: PublishedKind, limit = MAX_RECENT_VIDEOS): VideoStat[] {
    const ch = this.resolveCore(channel);
    if (!ch) return [];
    const now = this.nowMs();
    return this.deriver
      .ownVideos(ch, now, limit)
      .published.filter((fact) => !kind || fact.kind === kind)
      .map((fact) => this.deriver.stat(ch, fact, now));
  }

  /** Whether the channel published a video (of `kind`) after `sinceMs`: one comparison, for scans. */
  publishedSince(channel: CoreRef, sinceMs: number, kind?: PublishedKind): boolean {
    const ch = this.resolveCore(channel);
    if (!ch) return false;
    const last = kind === 'long' ? ch.state.last_long_ms : kind === 'short' ? ch.state.last_short_ms : Math.max(ch.state.last_long_ms, ch.state.last_short_ms);
    return last > sinceMs;
  }

  /** The video's captions (English, human or auto-generated), or null when it has none. */
  transcript(videoId: string): Transcript | null {
    const video = this.videoById(videoId);
    const channel = video && this.channelById(video.channel_id);
    return video && channel ? transcriptFor(this.meta.seed, video, channel) : null;
  }

  /**
   * The channel's newest longform watch pages as a live read at `atMs` finds them (ad-pages.ts):
   * whether they carry ads follows the world's time (`statusAtMs`, now unless said).
   */
  readAdPages(channel: ChannelRef, atMs: number, statusAtMs = this.nowMs()): AdPage[] {
    const ch = this.resolve(channel);
    return ch ? readAdPages(this.meta.seed, ch, this.ownVideos(ch), atMs, statusAtMs) : [];
  }

  /** What the channel sells outside the platform (external-monetization.ts). */
  externalMonetization(channel: ChannelRef): ExternalMonetizationTruth | null {
    const ch = this.resolve(channel);
    return ch ? externalMonetizationOf(this.meta.seed, ch, this.ownVideos(ch)) : null;
  }

  /**
   * Published videos to try commands with: from the varied channel sample, taking turns between
   * long videos with human captions, shorts, and long videos with auto captions or none, so the
   * first few already show every kind. With `channel`, the videos listed under that channel
   * (upcoming included): its own, and collabs other channels host with it.
   */
  sampleVideos(limit: number, channel?: ChannelRef): SampleVideo[] {
    if (!(limit > 0)) return [];
    if (channel !== undefined) {
      const owner = this.resolve(channel);
      if (!owner) return [];
      return this.channelVideos(owner, { limit }).map((video) => this.describeSample(video));
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
        const candidates = this.channelVideos(owner).map((video) => this.describeSample(video));
        const match = candidates.find((video) => video.kind !== 'upcoming' && !seen.has(video.video_id) && (round > 1 || want(video)));
        if (!match) continue;
        seen.add(match.video_id);
        picked.push(match);
      }
    }
    return picked;
  }

  private describeSample(video: WorldVideo): SampleVideo {
    const host = this.channelById(video.channel_id)!;
    return {
      video_id: video.video_id,
      channel_id: video.channel_id,
      title: video.title,
      duration_seconds: video.duration_seconds,
      kind: video.kind,
      captions: captionSource(this.meta.seed, video, host),
      url: video.kind === 'short' ? `https://www.youtube.com/shorts/${video.video_id}` : `https://www.youtube.com/watch?v=${video.video_id}`,
      collaborators: video.collaborators,
    };
  }

  /**
   * Daily history, oldest first, between two 'YYYY-MM-DD' dates (inclusive), clipped to the
   * channel's creation date and the world's current day. Defaults to the last 60 days. The last
   * entry equals the channel's current totals (the current day, once begun, with its totals so far).
   */
  dailyStats(channel: ChannelRef, fromDate?: string, toDate?: string): DailyStat[] {
    const ch = this.resolve(channel);
    if (!ch) return [];
    const now = this.nowMs();
    const currentDay = Math.ceil(now / DAY_MS) - 1;
    const to = toDate ? dayNumber(toDate) : currentDay;
    const from = fromDate ? dayNumber(fromDate) : to - DEFAULT_HISTORY_DAYS + 1;
    return dailyStatsFor(this.statsSource(ch), this.refDay, now, from, to);
  }

  /** Absolute gains over the last `days` days of world time (e.g. 1, 2, 7, 30). */
  growth(channel: ChannelRef, days: number): Growth | null {
    const ch = this.resolve(channel);
    return ch ? growthFor(this.statsSource(ch), this.refDay, this.nowMs(), days) : null;
  }

  deltas(channel: ChannelRef): Deltas | null {
    const ch = this.resolve(channel);
    return ch ? deltasFor(this.statsSource(ch), this.refDay, this.nowMs()) : null;
  }

  /** Subscriber and view totals at instants (ms) up to the world's now; null for an unknown channel. */
  totalsAt(channel: CoreRef, times: readonly number[]): Array<{ subscribers: number; views: number }> | null {
    const ch = this.resolveCore(channel);
    if (!ch) return null;
    const now = this.nowMs();
    if (times.some((t) => t > now)) throw new RangeError('totals are known up to the world\'s current time');
    return totalsAt(this.statsSource(ch), this.refDay, times);
  }

  /**
   * A varied, stable selection of the generated channels: size tiers interleaved (a few 1M+
   * channels, some mid-sized, several small ones) and, within a tier, world order (which mixes
   * languages and categories). Pages with offset.
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
    const fetched = inPage.map((n, tier) => (n > 0 ? this.stmts.tierPage.all(tier, this.seedChannels, n, before[tier]) : []));
    const cursor = inPage.map(() => 0);
    return sequence.map((tier) => rowToChannel(fetched[tier][cursor[tier]++]));
  }
}
