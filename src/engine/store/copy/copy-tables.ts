/**
 * What `tubekit engine copy-store` copies from a data dir's SQLite file into a fleet's PostgreSQL:
 * one declared list, parents before children (a child's rows name its parent's keys). When an area
 * moves to the shared store (its tables added to postgres-migrations.ts), each of its tables gets
 * one line here, or one in NOT_COPIED with the reason; a test fails while a table of the Postgres
 * schema is in neither. Columns are not listed: the copy takes the target table's own columns.
 */
import { WRITE_PROBE_KEY } from '../../health.js';
import { EDITION_SETTING } from '../../features/checks/check-index.js';
import { IDENTITY_CHANNEL } from '../../identity/identity.js';
import type Database from 'better-sqlite3';
import { PLATFORM_SETTING, WORLD_SETTING } from '../../platform/factory/open-platform.js';
import { SHARED_WORLD_CHANNEL, sharedWorldRowOfDataDir } from '../../platform/factory/shared-world-row.js';
import { CHANGED_CHANNEL as SETTINGS_CHANNEL } from '../settings.js';
import type { SqlValue } from '../store.js';
import { LIVE_TERMINATED_COPY } from '../../index/terminated/postgres/copied-rows.js';

export interface CopiedTable {
  table: string;
  /** The columns that name a row: the upsert's conflict target, and the order rows are copied in. */
  key: readonly string[];
  /**
   * 'upsert' (the default): the key is unique; a row already in the target with the same key is
   * replaced by the source's (and left untouched when it is equal).
   * 'counted': no unique key, and identical rows may repeat (two rate events in one millisecond);
   * the key is every column, and the target ends with as many copies of a row as the source has.
   */
  mode?: 'upsert' | 'counted';
  /** Only the source's rows matching `keep` (an SQL condition) are copied; the rest are counted as skipped, for `reason`. */
  filter?: { keep: string; reason: string };
  /** Told after rows were written, so servers already running on the target reload what they keep in memory. */
  announce?: string;
  /** A column naming a file relative to the engine's files dir (a voice's sample): the file is copied to the target's files dir before its row. */
  file?: string;
  /**
   * Where the table's rows come from when the source keeps them otherwise (other tables, other
   * columns; by default its table of the same name): a query giving the target's columns but
   * `derived`, which `derive` makes from each row it reads — fixed, or made from what the source's
   * file holds. The source has no such rows while it lacks the table `requires` (made on first use).
   */
  from?: { select: string | ((db: Database.Database) => string); requires?: string; derived?: readonly string[]; derive?: (row: Record<string, unknown>) => Record<string, SqlValue> };
}

/** Settings of the data dir itself (the engine reads them through `localSettings`), and the health check's scratch key. */
const DATA_DIR_SETTINGS = [PLATFORM_SETTING, WORLD_SETTING, EDITION_SETTING, WRITE_PROBE_KEY];

const sqlList = (values: readonly string[]) => values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ');

export const COPIED_TABLES: readonly CopiedTable[] = [
  {
    table: 'settings',
    key: ['key'],
    filter: { keep: `"key" NOT IN (${sqlList(DATA_DIR_SETTINGS)})`, reason: 'settings of the data dir itself (its platform, sample world, precheck edition) stay with it' },
    announce: SETTINGS_CHANNEL,
  },
  { table: 'users', key: ['id'], announce: IDENTITY_CHANNEL },
  { table: 'api_keys', key: ['id'], announce: IDENTITY_CHANNEL },
  { table: 'rate_events', key: ['user_id', 'bucket', 'at'], mode: 'counted' },
  { table: 'folders', key: ['id'] },
  { table: 'saved_channels', key: ['folder_id', 'channel_id'] },
  {
    table: 'jobs',
    key: ['id'],
    filter: { keep: `"state" IN ('completed', 'failed')`, reason: 'queued and running jobs are not copied: let them finish on the source (or submit them again on the fleet), then copy again' },
  },
  // What channel processing learned (the ad check's longform index counts these channels).
  { table: 'indexed_channels', key: ['channel_id'] },
  { table: 'indexed_videos', key: ['video_id'] },
  { table: 'alt_provider_voices', key: ['upstream_id'] },
  { table: 'voices', key: ['id'], file: 'sample_path' },
  { table: 'alerts', key: ['id'] },
  {
    table: 'alert_cycles',
    key: ['id'],
    filter: { keep: '"finished_at" IS NOT NULL', reason: "a cycle still running on the source: on the fleet its row would be a lease nobody holds" },
  },
  { table: 'alert_hits', key: ['id'] },
  { table: 'alert_hit_alerts', key: ['alert_id', 'hit_id'] },
  // The events outbox and the webhooks delivering it (a delivery leased on the source is simply due once its lease runs out).
  { table: 'events', key: ['seq'] },
  { table: 'webhook_endpoints', key: ['id'] },
  { table: 'webhook_deliveries', key: ['id'] },
  { table: 'webhook_attempts', key: ['delivery_id', 'attempt'] },
  { table: 'cms_owners', key: ['oid'] },
  { table: 'cms_verdicts', key: ['channel_id'] },
  { table: 'cms_signals', key: ['channel_id'] },
  { table: 'ad_verdicts', key: ['channel_id'] },
  { table: 'external_monetization', key: ['channel_id'] },
  // The live index: channels read, their snapshots, videos, the channels collab videos list, the sweep's progress.
  { table: 'live_channels', key: ['idx'] },
  { table: 'live_snapshots', key: ['channel_idx', 'at_ms'] },
  { table: 'live_videos', key: ['video_id'] },
  { table: 'live_video_members', key: ['video_id', 'channel_idx'] },
  {
    table: 'live_refresh',
    key: ['channel_idx'],
    filter: { keep: '"lease_owner" IS NULL', reason: "a channel the source's sweep is reading now: on the fleet it is simply due" },
  },
  { table: 'live_terminated', key: ['idx'], from: LIVE_TERMINATED_COPY },
  // The sample world's definition and clock (its tables stay derived data in each data dir).
  { table: 'sample_world', key: ['id'], from: { select: sharedWorldRowOfDataDir }, announce: SHARED_WORLD_CHANNEL },
];

/** Tables the database keeps itself from copied ones (by triggers): neither copied nor the target's own data. */
export const DERIVED_TABLES: ReadonlySet<string> = new Set(['live_terminated_words', 'live_terminated_word_bits']);

/** Tables of the Postgres schema the copy leaves alone, and why. */
export const NOT_COPIED: Readonly<Record<string, string>> = {
  job_workers: "worker processes alive on the source's machine: a fleet's workers register themselves",
  schema_migrations: "the target's own record of its migrations, brought up to date before the copy",
  download_files: 'the download cache: a file is rendered again on the fleet at its first request, as after it expires',
  download_slots: "downloads in progress on the source's machine: they end there",
  cms_live_checks: "live checks in progress on the source's machine (one per channel): their verdicts are copied once stored",
  live_terminated_words: "how many terminated channels hold each word: kept by live_terminated's triggers as its rows are copied",
  analysis_uploads: "uploads to the vision model are reused for 2 hours only, and their frames are in the source's data dir: the fleet uploads again at a video's next analysis",
  live_terminated_word_bits: "which terminated channels hold each common word and each mark of their figures: kept by live_terminated's triggers as its rows are copied",
};
