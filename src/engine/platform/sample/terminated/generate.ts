/**
 * Terminated channels: the `terminated` world entity. Their number is a world parameter of its own
 * (`engine seed --terminated N`), independent of the live channels, so a million of them can be
 * generated for a benchmark without a million live channels.
 *
 * Channel i draws from rngFor(streamSeed(seed, 'terminated'), i) only. Its termination date is a
 * monotone function of i (0 = most recent), which puts the rows in "newest first" order: that sort
 * costs nothing and the other sorts can tell ties apart by idx.
 */
import type Database from 'better-sqlite3';
import { WORLD_EPOCH } from '../channels.js';
import { dayNumber, dayToIso } from '../../../dates.js';
import type { GenerationContext, WorldEntity } from '../entity.js';
import { clamp, rngFor, streamSeed, type Rng } from '../prng.js';
import type { ContentType } from '../words.js';
import { TERMINATED_CATEGORIES, TERMINATED_LANGUAGES, terminatedChannelName, terminatedVideoTitle } from './names.js';
import { FACTS_TABLE, SEARCH_TABLE, TERMINATED_DDL, TERMINATED_INDEX_DDL, TERMINATED_TABLE, type TopVideo } from '../../../index/terminated/schema.js';
import { nameLengthToken, searchableText, tokensOf } from '../../../index/terminated/search-text.js';

/** Terminations spread over the six years before the world's reference date. */
const TERMINATION_SPAN_DAYS = 6 * 365;
/** Top videos kept per channel (the search result's `recent_videos`). */
export const TOP_VIDEOS = 3;
/** Rows per multi-row INSERT: fewer statements on big worlds. */
const INSERT_BATCH = 64;

interface GeneratedChannel {
  row: [idx: number, title: string, language: string, contentType: ContentType, lowQuality: number,
    firstUploadDay: number, terminatedDay: number, subs48h: number | null, topVideos: string];
  facts: [idx: number, subs: number, views: number, avgViews: number, videos: number, age: number,
    language: string, monetized: number, views24h: number | null, subs24h: number | null, views48h: number | null, titleTokens: number];
  search: [idx: number, title: string, videos: string, meta: string];
}

/** Days before the reference date on which channel `idx` of `count` was terminated (non-decreasing in idx). */
export function terminatedDaysAgo(idx: number, count: number, spanDays: number): number {
  // A power above 1 crowds terminations towards the present: more of them are recent.
  return Math.floor(spanDays * ((idx + 0.5) / count) ** 1.4);
}

export class TerminatedGenerator {
  private readonly stream: number;
  private readonly spanDays: number;
  private readonly epochDay = dayNumber(WORLD_EPOCH);

  constructor(
    seed: string,
    private readonly refDay: number,
    private readonly count: number,
  ) {
    this.stream = streamSeed(seed, 'terminated');
    // Early reference dates (tests) leave room for at least a month of life before termination.
    this.spanDays = Math.max(0, Math.min(TERMINATION_SPAN_DAYS, refDay - this.epochDay - 45));
  }

  channel(idx: number): GeneratedChannel {
    const rng = rngFor(this.stream, idx);
    const language = TERMINATED_LANGUAGES.pick(rng);
    const { def: category, contentTypes } = TERMINATED_CATEGORIES.pick(rng);
    const contentType = contentTypes.pick(rng);
    const terminatedDay = this.refDay - terminatedDaysAgo(idx, this.count, this.spanDays);
    const age = clamp(Math.round(rng.logNormal(520, 0.9)), 14, terminatedDay - this.epochDay);

    let subscribers = rng.chance(0.004) ? Math.min(rng.pareto(1_000_000, 1.1), 80_000_000) : Math.min(rng.logNormal(2500 * category.sizeFactor, 2.0), 40_000_000);
    subscribers = Math.floor(subscribers);
    const weeklyUploads = contentType === 'shorts' ? rng.logNormal(5, 0.8) : contentType === 'mixed' ? rng.logNormal(2.5, 0.8) : rng.logNormal(1.2, 0.8);
    const videos = Math.min(60_000, Math.max(1, Math.round((age / 7) * weeklyUploads * rng.float(0.2, 1))));
    const viewsPerSub = rng.logNormal(contentType === 'shorts' ? 450 : contentType === 'mixed' ? 260 : 180, 0.8) * category.viewFactor;
    const views = Math.max(Math.round(subscribers * viewsPerSub), videos * rng.int(3, 40));
    const monetized = subscribers >= 1000 && views >= 100_000 && rng.chance(0.7) ? 1 : 0;
    const lowQuality = rng.chance(contentType === 'shorts' ? 0.25 : 0.12) ? 1 : 0;
    const gains = this.gains(rng, subscribers, views, age);

    const title = terminatedChannelName(rng, language, category);
    const topVideos = this.topVideos(rng, language, category, contentType, views, videos, terminatedDay - age, terminatedDay);
    const videoTitles = topVideos.map(([videoTitle]) => videoTitle).join('\n');
    const nameTokens = tokensOf(title).length;
    return {
      row: [idx, title, language.code, contentType, lowQuality, terminatedDay - age, terminatedDay, gains.subs48h, JSON.stringify(topVideos)],
      facts: [idx, subscribers, views, Math.floor(views / videos), videos, age, language.code, monetized, gains.views24h, gains.subs24h, gains.views48h, nameTokens],
      search: [idx, searchableText(title), searchableText(videoTitles), nameLengthToken(nameTokens)],
    };
  }

  /**
   * Views and subscribers gained in the 24 and 48 hours before termination. The platform stopped
   * being watched for some channels: about a quarter have no figures, a tenth only the last day's.
   */
  private gains(rng: Rng, subscribers: number, views: number, age: number) {
    const known = rng.next();
    const burst = rng.logNormal(1, 0.9);
    const day = (total: number, sigma: number) => Math.max(0, Math.round((total / age) * burst * rng.logNormal(1, sigma)));
    const views24h = day(views, 0.3);
    const views48h = views24h + day(views, 0.4);
    // Subscribers can fall in the last days (strikes make news); views cannot.
    const sign = rng.chance(0.12) ? -1 : 1;
    const subs24h = sign * day(subscribers, 0.5);
    const subs48h = subs24h + sign * day(subscribers, 0.5);
    if (known < 0.62) return { views24h, subs24h, views48h, subs48h };
    if (known < 0.72) return { views24h, subs24h, views48h: null, subs48h: null };
    return { views24h: null, subs24h: null, views48h: null, subs48h: null };
  }

  /** The channel's most viewed videos, most viewed first (fewer when it had fewer videos). */
  private topVideos(
    rng: Rng,
    language: Parameters<typeof terminatedVideoTitle>[1],
    category: Parameters<typeof terminatedVideoTitle>[2],
    contentType: ContentType,
    views: number,
    videos: number,
    firstDay: number,
    lastDay: number,
  ): TopVideo[] {
    const list: TopVideo[] = [];
    let share = videos === 1 ? 1 : clamp(rng.logNormal(0.1, 0.7), 0.01, 0.6);
    for (let ordinal = 0; ordinal < Math.min(TOP_VIDEOS, videos); ordinal += 1) {
      const short = contentType === 'shorts' || (contentType === 'mixed' && rng.chance(0.5));
      const year = yearOf(firstDay + rng.int(0, Math.max(0, lastDay - firstDay)));
      list.push([terminatedVideoTitle(rng, language, category, short, year), Math.max(1, Math.floor(views * share)), short ? 'short' : 'long']);
      share *= rng.float(0.3, 0.9);
    }
    return list;
  }
}

/** The year of a day number, without a Date per video. */
function yearOf(day: number): number {
  return Number(dayToIso(day).slice(0, 4));
}

const insertSql = (table: string, columns: number, rows: number) =>
  `INSERT INTO ${table} VALUES ${Array(rows).fill(`(${Array(columns).fill('?').join(',')})`).join(',')}`;

/** Collects rows and writes them INSERT_BATCH at a time. */
class BatchInserter {
  private values: unknown[] = [];
  private readonly full;

  constructor(
    private readonly db: Database.Database,
    private readonly table: string,
    private readonly columns: number,
  ) {
    this.full = db.prepare(insertSql(table, columns, INSERT_BATCH));
  }

  add(row: readonly unknown[]): void {
    for (const value of row) this.values.push(value);
    if (this.values.length === INSERT_BATCH * this.columns) this.flush();
  }

  flush(): void {
    if (this.values.length === 0) return;
    if (this.values.length === INSERT_BATCH * this.columns) this.full.run(this.values);
    else this.db.prepare(insertSql(this.table, this.columns, this.values.length / this.columns)).run(this.values);
    this.values = [];
  }
}

export const terminatedEntity: WorldEntity = {
  name: 'terminated',
  createTables(db) {
    db.exec(TERMINATED_DDL);
  },
  generate(ctx: GenerationContext) {
    const count = ctx.params.terminated;
    const generator = new TerminatedGenerator(ctx.params.seed, ctx.refDay, count);
    const rows = new BatchInserter(ctx.db, TERMINATED_TABLE, 9);
    const facts = new BatchInserter(ctx.db, FACTS_TABLE, 12);
    const search = new BatchInserter(ctx.db, `${SEARCH_TABLE}(rowid, title, videos, meta)`, 4);
    // No merging while loading: one 'optimize' at the end merges every segment at once, faster.
    ctx.db.exec(`INSERT INTO ${SEARCH_TABLE}(${SEARCH_TABLE}, rank) VALUES ('automerge', 0)`);
    let longestName = 0;
    for (let idx = 0; idx < count; idx += 1) {
      const channel = generator.channel(idx);
      rows.add(channel.row);
      facts.add(channel.facts);
      search.add(channel.search);
      longestName = Math.max(longestName, channel.facts[11]);
    }
    for (const batch of [rows, facts, search]) batch.flush();
    ctx.meta.terminated_count = count;
    ctx.meta.terminated_longest_name = longestName;
  },
  createIndexes(db) {
    // Index builds sort every row: a big cache keeps the sort in memory (a million rows: a few
    // hundred MB, only while building). The connection's own size comes back afterwards.
    const cacheSize = db.pragma('cache_size', { simple: true }) as number;
    db.pragma('cache_size = -524288');
    try {
      db.exec(TERMINATED_INDEX_DDL);
      // One segment b-tree instead of many: fewer lookups per query term.
      db.exec(`INSERT INTO ${SEARCH_TABLE}(${SEARCH_TABLE}) VALUES ('optimize')`);
      db.exec(`INSERT INTO ${SEARCH_TABLE}(${SEARCH_TABLE}, rank) VALUES ('automerge', 4)`);
    } finally {
      db.pragma(`cache_size = ${cacheSize}`);
    }
  },
};
