/**
 * World generation and the `world_meta` bookkeeping.
 *
 * The world is derived data: it is not part of the engine's migrations. It
 * is (re)generated whenever `world_meta` is missing or records a different
 * generator version, seed or channel count (or a different reference date,
 * when one is requested explicitly).
 *
 * To add an entity kind: write a module implementing `WorldEntity` (own
 * `world_*` tables, own PRNG stream key) and append it to WORLD_ENTITIES.
 * Bump WORLD_GENERATOR_VERSION whenever generated output changes, so that
 * existing databases regenerate.
 */
import type Database from 'better-sqlite3';
import { channelsEntity } from './channels.js';
import { collabsEntity } from './collabs.js';
import { dayNumber, isIsoDate, msToTimestamp, todayUtc } from '../../dates.js';
import type { GenerationContext, WorldEntity, WorldParams } from './entity.js';
import { terminatedEntity } from './terminated/generate.js';
import type { WorldInfo, WorldOptions } from './types.js';
import { videosEntity } from './videos.js';
import { networksEntity } from './networks.js';
import { CLOCK_META_KEY, INITIAL_CLOCK, originMs, parseClock } from './world-clock.js';
import { DEFAULT_WORLD_TERMINATED } from './defaults.js';

export { DEFAULT_WORLD_CHANNELS, DEFAULT_WORLD_SEED, DEFAULT_WORLD_TERMINATED } from './defaults.js';

export const WORLD_GENERATOR_VERSION = 4;
/** Upper bound on channel count (ids encode the index in 32 bits; this keeps sizes sane). */
export const MAX_WORLD_CHANNELS = 50_000_000;
export const MAX_WORLD_TERMINATED = 10_000_000;

/** Generation order matters only for entities reading earlier ones' tables. */
export const WORLD_ENTITIES: readonly WorldEntity[] = [channelsEntity, videosEntity, networksEntity, terminatedEntity, collabsEntity];

const META_DDL = 'CREATE TABLE world_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID';

export function normalizeSeed(seed: string | number): string {
  const s = String(seed);
  if (s.length === 0) throw new Error('world seed must not be empty');
  return s;
}

/** The day a world generated with these options is made for. */
export function generationDate(opts: Pick<WorldOptions, 'referenceDate' | 'defaultReferenceDate'>): string {
  return opts.referenceDate ?? opts.defaultReferenceDate ?? todayUtc();
}

/** Validates options; `referenceDate` stays undefined when not given. */
export function normalizeOptions(opts: WorldOptions): { seed: string; channels: number; terminated: number; referenceDate?: string } {
  const channels = opts.channels;
  if (!Number.isInteger(channels) || channels < 1 || channels > MAX_WORLD_CHANNELS) {
    throw new Error(`world channel count must be an integer in 1..${MAX_WORLD_CHANNELS}, got ${channels}`);
  }
  const terminated = opts.terminated ?? DEFAULT_WORLD_TERMINATED;
  if (!Number.isInteger(terminated) || terminated < 0 || terminated > MAX_WORLD_TERMINATED) {
    throw new Error(`world terminated count must be an integer in 0..${MAX_WORLD_TERMINATED}, got ${terminated}`);
  }
  if (opts.referenceDate !== undefined) {
    if (!isIsoDate(opts.referenceDate)) throw new Error(`invalid referenceDate "${opts.referenceDate}" (YYYY-MM-DD)`);
    if (opts.referenceDate < '2007-01-01') throw new Error('referenceDate must be 2007-01-01 or later');
  }
  return { seed: normalizeSeed(opts.seed), channels, terminated, referenceDate: opts.referenceDate };
}

function metaTableExists(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'world_meta'").get() !== undefined;
}

/** Raw world_meta key/values, or null when there is no world. */
export function readWorldMeta(db: Database.Database): Record<string, string> | null {
  if (!metaTableExists(db)) return null;
  const rows = db.prepare('SELECT key, value FROM world_meta').all() as Array<{ key: string; value: string }>;
  if (rows.length === 0) return null;
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

export function metaToInfo(meta: Record<string, string>): WorldInfo {
  const clock = parseClock(meta[CLOCK_META_KEY]);
  return {
    generator_version: Number(meta.generator_version),
    seed: meta.seed,
    channel_count: Number(meta.channel_count),
    video_count: Number(meta.video_count ?? 0) + clock.published_uploads,
    terminated_count: Number(meta.terminated_count ?? 0),
    reference_date: meta.reference_date,
    world_time: msToTimestamp(originMs(dayNumber(meta.reference_date)) + clock.advanced_ms),
    advanced_ms: clock.advanced_ms,
    arrived_channels: clock.arrived_channels,
    generated_at: meta.generated_at,
    generation_ms: Number(meta.generation_ms ?? 0),
  };
}

/** True when the stored world was made by this generator with these parameters. */
export function worldMatches(
  meta: Record<string, string> | null,
  want: { seed: string; channels: number; terminated: number; referenceDate?: string },
): boolean {
  if (!meta) return false;
  return (
    Number(meta.generator_version) === WORLD_GENERATOR_VERSION &&
    meta.seed === want.seed &&
    Number(meta.channel_count) === want.channels &&
    Number(meta.terminated_count ?? 0) === want.terminated &&
    (want.referenceDate === undefined || meta.reference_date === want.referenceDate)
  );
}

/** Names of all world tables currently in the database. */
export function worldTables(db: Database.Database): string[] {
  return (
    db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'world\\_%' ESCAPE '\\'")
      .all() as Array<{ name: string }>
  ).map((r) => r.name);
}

/**
 * Drop every world_* table and generate the world from scratch, in one
 * transaction (a savepoint when the caller already has one open).
 */
export function generateWorld(db: Database.Database, params: WorldParams): WorldInfo {
  const started = performance.now();
  const ctx: GenerationContext = { db, params, refDay: dayNumber(params.referenceDate), meta: {} };
  db.transaction(() => {
    // IF EXISTS: dropping a virtual table (full-text search) drops its shadow tables with it.
    for (const t of worldTables(db)) db.exec(`DROP TABLE IF EXISTS "${t}"`);
    db.exec(META_DDL);
    for (const e of WORLD_ENTITIES) e.createTables(db);
    for (const e of WORLD_ENTITIES) e.generate(ctx);
    // Secondary indexes after the bulk insert: much faster than maintaining them row by row.
    for (const e of WORLD_ENTITIES) e.createIndexes(db);
    const meta: Record<string, string | number> = {
      ...ctx.meta,
      generator_version: WORLD_GENERATOR_VERSION,
      seed: params.seed,
      channel_count: params.channels,
      reference_date: params.referenceDate,
      generated_at: new Date().toISOString(),
      generation_ms: Math.round(performance.now() - started),
      [CLOCK_META_KEY]: JSON.stringify(INITIAL_CLOCK),
    };
    const put = db.prepare('INSERT INTO world_meta (key, value) VALUES (?, ?)');
    for (const [k, v] of Object.entries(meta)) put.run(k, String(v));
  })();
  return metaToInfo(readWorldMeta(db)!);
}

/**
 * Generate the world unless a matching one exists. The common case (world
 * present) is a plain read; otherwise the check is repeated and generation
 * runs inside one IMMEDIATE transaction, so concurrent processes do not
 * generate twice. Returns whether generation happened.
 */
export function ensureWorld(db: Database.Database, opts: WorldOptions): boolean {
  const want = normalizeOptions(opts);
  if (worldMatches(readWorldMeta(db), want)) return false;
  const run = db.transaction(() => {
    if (worldMatches(readWorldMeta(db), want)) return false;
    generateWorld(db, { seed: want.seed, channels: want.channels, terminated: want.terminated, referenceDate: generationDate(opts) });
    return true;
  });
  return db.inTransaction ? run() : run.immediate();
}
