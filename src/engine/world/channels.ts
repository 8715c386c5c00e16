/**
 * Channels: the core entity of the world, one row per channel in
 * `world_channels`, derived from rngFor(streamSeed(seed, 'channels'), idx).
 *
 * Channel i depends only on (seed, i, reference date) and, for its handle, on
 * the handles of channels 0..i-1 (a number is appended on collision). So the
 * first N channels of a bigger world equal the channels of an N-channel world.
 *
 * Handles are stored with their leading "@" and in lowercase, in a
 * `COLLATE NOCASE` unique column: SQL lookups are case-insensitive too.
 */
import type Database from 'better-sqlite3';
import { dayNumber, dayToIso } from './dates.js';
import type { GenerationContext, WorldEntity } from './entity.js';
import { encodeChannelId, idKeys } from './ids.js';
import { clamp, Rng, rngFor, streamSeed, Weighted } from './prng.js';
import type { WorldChannel } from './types.js';
import {
  ADJECTIVES,
  asciiFold,
  CATEGORIES,
  LANGUAGES,
  SURNAMES,
  type CategoryDef,
  type ContentType,
  type LanguageDef,
} from './words.js';

/** Channels are at least this old, so every channel has a full recent history. */
export const MIN_CHANNEL_AGE_DAYS = 120;
/** Oldest creation date in the world. */
export const WORLD_EPOCH = '2006-01-01';
export const CHANNEL_THUMBNAIL_HOST = 'yt3.tubekit-cdn.invalid';

/** Size tiers used for varied sampling: 0 = 1M+, 1 = 100k+, 2 = 10k+, 3 = 1k+, 4 = smaller. */
export const TIER_MIN_SUBSCRIBERS = [1_000_000, 100_000, 10_000, 1_000, 0] as const;

export function subscriberTier(subscribers: number): number {
  for (let t = 0; t < TIER_MIN_SUBSCRIBERS.length; t++) if (subscribers >= TIER_MIN_SUBSCRIBERS[t]) return t;
  return TIER_MIN_SUBSCRIBERS.length - 1;
}

const CHANNEL_DDL = `
CREATE TABLE world_channels (
  idx           INTEGER PRIMARY KEY,   -- 0-based generation order
  channel_id    TEXT NOT NULL,         -- 'UC' + 22 chars
  handle        TEXT NOT NULL COLLATE NOCASE, -- '@' + lowercase handle
  title         TEXT NOT NULL,
  description   TEXT NOT NULL,
  language      TEXT NOT NULL,         -- 'English'
  language_code TEXT NOT NULL,         -- 'en'
  country       TEXT NOT NULL,         -- ISO 3166-1 alpha-2
  category      TEXT NOT NULL,
  content_type  TEXT NOT NULL,         -- longform | shorts | mixed
  subscribers   INTEGER NOT NULL,
  total_views   INTEGER NOT NULL,
  video_count   INTEGER NOT NULL,
  created_at    TEXT NOT NULL,         -- 'YYYY-MM-DD'
  thumbnail_url TEXT NOT NULL,
  tier          INTEGER NOT NULL,      -- size tier, see subscriberTier()
  sub_rate      REAL NOT NULL,         -- growth model, see ChannelGrowthModel
  view_rate     REAL NOT NULL,
  trend         REAL NOT NULL,
  volatility    REAL NOT NULL,
  noise         INTEGER NOT NULL
)`;

const CHANNEL_COLUMNS = 21;
/** Rows per INSERT statement: multi-row inserts cut per-statement overhead on big worlds. */
const INSERT_BATCH = 64;
const insertSql = (rows: number): string =>
  `INSERT INTO world_channels VALUES ${Array(rows).fill(`(${Array(CHANNEL_COLUMNS).fill('?').join(',')})`).join(',')}`;

type ChannelRowValues = [
  idx: number, channel_id: string, handle: string, title: string, description: string,
  language: string, language_code: string, country: string, category: string, content_type: ContentType,
  subscribers: number, total_views: number, video_count: number, created_at: string, thumbnail_url: string,
  tier: number, sub_rate: number, view_rate: number, trend: number, volatility: number, noise: number,
];

interface LanguageTables {
  def: LanguageDef;
  countries: Weighted<string>;
}

const LANGUAGE_TABLE = new Weighted<LanguageTables>(
  LANGUAGES.map((def) => [{ def, countries: new Weighted(def.countries) }, def.weight] as const),
);
const CATEGORY_TABLE = new Weighted<{ def: CategoryDef; contentTypes: Weighted<ContentType> }>(
  CATEGORIES.map((def) => [{ def, contentTypes: new Weighted(def.contentTypes) }, def.weight] as const),
);

const HANDLE_MAX = 30;

type NameStyle = 'adjTopicWithName' | 'nameBrand' | 'adjTopic' | 'theAdjBrand' | 'fullName' | 'possessive';
const NAME_STYLES = new Weighted<NameStyle>([
  ['adjTopicWithName', 3],
  ['nameBrand', 3],
  ['adjTopic', 2],
  ['theAdjBrand', 1],
  ['fullName', 2],
  ['possessive', 1],
]);

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Title and handle parts (ASCII) for a channel. */
function makeName(rng: Rng, lang: LanguageDef, cat: CategoryDef): { title: string; parts: string[] } {
  const [nameDisplay, nameAscii] = rng.pick(lang.names);
  if (lang.nativeSuffixes && rng.chance(lang.nativeShare ?? 0)) {
    const [sufDisplay, sufAscii] = rng.pick(lang.nativeSuffixes);
    return { title: nameDisplay + sufDisplay, parts: [nameAscii, sufAscii] };
  }
  // Non-Latin scripts outside native titles use the romanised name.
  const name = lang.nativeSuffixes ? capitalize(nameAscii) : nameDisplay;
  const adj = rng.pick(ADJECTIVES);
  const topic = rng.pick(cat.topics);
  const brand = rng.pick(cat.brands);
  let style = NAME_STYLES.pick(rng);
  if (lang.code !== 'en') {
    // English-only patterns fall back to language-neutral ones.
    if (style === 'theAdjBrand' || style === 'possessive') style = 'adjTopic';
    else if (style === 'fullName') style = 'nameBrand';
  }
  switch (style) {
    case 'adjTopicWithName':
      return { title: `${adj} ${topic} ${lang.withWord ?? 'with'} ${name}`, parts: [adj, topic, nameAscii] };
    case 'nameBrand':
      return rng.chance(0.4)
        ? { title: `${name}${brand}`, parts: [nameAscii, brand] }
        : { title: `${name} ${brand}`, parts: [nameAscii, brand] };
    case 'adjTopic':
      return { title: `${adj} ${topic}`, parts: [adj, topic] };
    case 'theAdjBrand':
      return { title: `The ${adj} ${brand}`, parts: ['the', adj, brand] };
    case 'fullName': {
      const surname = rng.pick(SURNAMES);
      return { title: `${name} ${surname}`, parts: [nameAscii, surname] };
    }
    case 'possessive':
      return { title: `${name}'s ${topic}`, parts: [nameAscii + 's', topic] };
  }
}

const HANDLE_DECORATIONS = ['tv', 'official', 'hq', 'yt', 'channel', 'real'];

function baseHandle(rng: Rng, parts: string[]): string {
  let ascii = parts.map(asciiFold).filter((p) => p.length > 0);
  if (ascii.length === 0) ascii = ['channel'];
  const sep = rng.chance(0.1) ? rng.pick(['.', '_']) : '';
  if (rng.chance(0.1)) ascii.push(rng.pick(HANDLE_DECORATIONS));
  let h = ascii.join(sep);
  // Leave room for a disambiguating number.
  while (h.length > HANDLE_MAX - 5 && ascii.length > 1) {
    ascii = ascii.slice(1);
    h = ascii.join(sep);
  }
  if (h.length > HANDLE_MAX - 5) h = h.slice(0, HANDLE_MAX - 5);
  if (h.length < 3) h = h + 'tv';
  return h;
}

/** Unique handle ('@' + lowercase); `taken` holds the lowercase handles of earlier channels. */
function uniqueHandle(rng: Rng, base: string, idx: number, taken: Set<string>): string {
  let h = base;
  if (taken.has(h)) h = base + rng.int(1, 99);
  if (taken.has(h)) h = base + rng.int(100, 9999);
  if (taken.has(h)) {
    // Last resort, unique in practice: the channel index in base 36.
    const tagged = `${base.slice(0, HANDLE_MAX - 8)}_${idx.toString(36)}`;
    h = tagged;
    for (let k = 0; taken.has(h); k++) h = tagged + k;
  }
  taken.add(h);
  return '@' + h;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m);
}

/** Shared, per-world state of channel generation. */
export class ChannelGenerator {
  private readonly stream: number;
  private readonly keys;
  private readonly refDay: number;
  private readonly maxAge: number;
  private readonly taken = new Set<string>();

  constructor(seed: string, refDay: number) {
    this.stream = streamSeed(seed, 'channels');
    this.keys = idKeys(seed, 'channel');
    this.refDay = refDay;
    this.maxAge = refDay - dayNumber(WORLD_EPOCH);
    if (this.maxAge < MIN_CHANNEL_AGE_DAYS + 30) throw new Error('reference date is too early for a world');
  }

  /** Row values of channel idx (must be called in idx order for handle uniqueness). */
  row(idx: number): ChannelRowValues {
    const rng = rngFor(this.stream, idx);
    const { def: lang, countries } = LANGUAGE_TABLE.pick(rng);
    const country = countries.pick(rng);
    const { def: cat, contentTypes } = CATEGORY_TABLE.pick(rng);
    const contentType = contentTypes.pick(rng);

    // Heavy-tailed size: mostly log-normal, with a rare power-law tail of giants.
    let subscribers = rng.chance(0.006)
      ? Math.min(rng.pareto(1_000_000, 0.95), 350_000_000)
      : Math.min(rng.logNormal(3000 * cat.sizeFactor, 2.1), 60_000_000);
    subscribers = Math.floor(subscribers);

    // Bigger channels skew older.
    const bigness = clamp(Math.log10(subscribers + 1) / 8.5, 0, 1);
    const ageFrac = Math.pow(rng.next(), 1.8 - 1.4 * bigness);
    const age = MIN_CHANNEL_AGE_DAYS + Math.floor(ageFrac * (this.maxAge - MIN_CHANNEL_AGE_DAYS));

    const weeklyUploads =
      (contentType === 'shorts' ? rng.logNormal(4, 0.8) : contentType === 'mixed' ? rng.logNormal(2.2, 0.8) : rng.logNormal(1, 0.8)) *
      (cat.name === 'News' ? 3 : 1);
    const activeShare = rng.float(0.15, 1);
    const videoCount = Math.min(60_000, Math.max(1, Math.round((age / 7) * weeklyUploads * activeShare)));

    const viewsPerSub =
      rng.logNormal(contentType === 'shorts' ? 450 : contentType === 'mixed' ? 260 : 180, 0.8) * cat.viewFactor;
    const totalViews = Math.max(Math.round(subscribers * viewsPerSub), videoCount * rng.int(3, 40));

    // Growth model (see stats.ts).
    const declining = rng.chance(0.12);
    const g = declining
      ? -rng.float(0.00005, 0.0012)
      : clamp(rng.logNormal(0.0007, 0.9), 0.00002, 0.006) * Math.min(3, 1 + 150 / age);
    const subRate = subscribers * g;
    const viewRate = Math.min(totalViews / 150, (totalViews / age) * rng.logNormal(1, 0.6) * (declining ? 0.6 : 1));
    const trend = clamp(rng.normal() * 0.006 + (declining ? -0.003 : 0), -0.02, 0.02);
    const volatility = contentType === 'shorts' ? rng.float(0.2, 0.55) : rng.float(0.08, 0.4);
    const noise = rng.u32();

    const { title, parts } = makeName(rng, lang, cat);
    const description = fill(rng.pick(lang.descriptions), { title, topic: cat.topicWord });
    // Last: the draws of uniqueHandle depend on earlier channels' handles.
    const handle = uniqueHandle(rng, baseHandle(rng, parts), idx, this.taken);
    const channelId = encodeChannelId(this.keys, idx);

    return [
      idx, channelId, handle, title, description,
      lang.name, lang.code, country, cat.name, contentType,
      subscribers, totalViews, videoCount, dayToIso(this.refDay - age),
      `https://${CHANNEL_THUMBNAIL_HOST}/ch/${channelId}/s800.jpg`,
      subscriberTier(subscribers), subRate, viewRate, trend, volatility, noise,
    ];
  }
}

export interface ChannelRow {
  idx: number;
  channel_id: string;
  handle: string;
  title: string;
  description: string;
  language: string;
  language_code: string;
  country: string;
  category: string;
  content_type: ContentType;
  subscribers: number;
  total_views: number;
  video_count: number;
  created_at: string;
  thumbnail_url: string;
  tier: number;
  sub_rate: number;
  view_rate: number;
  trend: number;
  volatility: number;
  noise: number;
}

export function rowToChannel(r: ChannelRow): WorldChannel {
  return {
    idx: r.idx,
    channel_id: r.channel_id,
    handle: r.handle,
    title: r.title,
    description: r.description,
    language: r.language,
    language_code: r.language_code,
    country: r.country,
    category: r.category,
    content_type: r.content_type,
    subscribers: r.subscribers,
    total_views: r.total_views,
    video_count: r.video_count,
    created_at: r.created_at,
    thumbnail_url: r.thumbnail_url,
    model: { sub_rate: r.sub_rate, view_rate: r.view_rate, trend: r.trend, volatility: r.volatility, noise: r.noise },
  };
}

export const channelsEntity: WorldEntity = {
  name: 'channels',
  createTables(db: Database.Database) {
    db.exec(CHANNEL_DDL);
  },
  generate(ctx: GenerationContext) {
    const gen = new ChannelGenerator(ctx.params.seed, ctx.refDay);
    const n = ctx.params.channels;
    const insertBatch = ctx.db.prepare(insertSql(INSERT_BATCH));
    const tiers = new Array<number>(TIER_MIN_SUBSCRIBERS.length).fill(0);
    let values: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const row = gen.row(i);
      tiers[row[15]]++;
      for (let c = 0; c < CHANNEL_COLUMNS; c++) values.push(row[c]);
      if (values.length === INSERT_BATCH * CHANNEL_COLUMNS) {
        insertBatch.run(values);
        values = [];
      }
    }
    if (values.length > 0) ctx.db.prepare(insertSql(values.length / CHANNEL_COLUMNS)).run(values);
    ctx.meta.tier_counts = JSON.stringify(tiers);
  },
  createIndexes(db: Database.Database) {
    db.exec(`
      CREATE UNIQUE INDEX world_channels_channel_id ON world_channels(channel_id);
      CREATE UNIQUE INDEX world_channels_handle ON world_channels(handle);
      CREATE INDEX world_channels_tier ON world_channels(tier, idx);
    `);
  },
};
