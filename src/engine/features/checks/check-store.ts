/**
 * The checks' tables on the engine's store (SQLite migrations "channel checks: …" and "managed-network signals of live checks", Postgres migration "alerts and their cycles, channel-check verdicts and live-check claims"), in
 * SQL portable between the two: managed-network verdicts, owners and the signals live verdicts
 * rest on, live-check claims, ad verdicts, and external monetization results. On a fleet's store
 * every server answers a verdict any of them stored.
 */
import type { Executor, SqlValue } from '../../store/store.js';

/** Named columns, not `*`: a prepared statement must keep its shape when a migration adds one. */
const CMS_VERDICTS_COLUMNS = 'channel_id, status, oid, checked_at, source, name, subscribers, avg_views, language, category';
const CMS_LIVE_CHECKS_COLUMNS = 'channel_id, token, started_at, lease_expires_at, finished_at, outcome';
const AD_VERDICTS_COLUMNS = 'channel_id, monetized, reason, last_checked_at, last_seen_monetized_at, last_seen_demonetized_at';
const EXTERNAL_MONETIZATION_COLUMNS = 'channel_id, classifier_version, classified_at, result';

export type CmsStatus = 'managed' | 'not_managed';

export interface CmsVerdictRow {
  channel_id: string;
  status: CmsStatus;
  oid: string | null;
  checked_at: number;
  source: 'precheck' | 'live';
  name: string;
  /** null: the live site hid the count (a verdict never stores an unknown as 0). */
  subscribers: number | null;
  avg_views: number | null;
  language: string | null;
  category: string | null;
}

export interface OwnerRow {
  oid: string;
  name: string | null;
  type: string | null;
  industry: string | null;
}

export interface MemberRow {
  channel_id: string;
  name: string;
  subscribers: number | null;
  avg_views: number | null;
  language: string | null;
  category: string | null;
}

export interface NetworkRow extends OwnerRow {
  member_count: number;
  total_subscribers: number;
}

export interface ClaimRow {
  channel_id: string;
  token: string;
  started_at: number;
  lease_expires_at: number;
  finished_at: number | null;
  outcome: string | null;
}

export interface AdVerdictRow {
  channel_id: string;
  monetized: 0 | 1 | null;
  reason: string;
  last_checked_at: number;
  last_seen_monetized_at: number | null;
  last_seen_demonetized_at: number | null;
}

export interface ExternalRow {
  channel_id: string;
  classifier_version: string;
  classified_at: number;
  result: string;
}

const VERDICT_COLUMNS = ['channel_id', 'status', 'oid', 'checked_at', 'source', 'name', 'subscribers', 'avg_views', 'language', 'category'] as const;
const MEMBER_COLUMNS = 'channel_id, name, subscribers, avg_views, language, category';
/** Rows per INSERT when the pre-checked verdicts are copied in (10 values a row). */
const BATCH_ROWS = 500;

const upsertVerdicts = (rows: number) =>
  `INSERT INTO cms_verdicts (${VERDICT_COLUMNS.join(', ')})
   VALUES ${Array.from({ length: rows }, () => `(${VERDICT_COLUMNS.map(() => '?').join(', ')})`).join(', ')}
   ON CONFLICT (channel_id) DO UPDATE SET status = excluded.status, oid = excluded.oid, checked_at = excluded.checked_at,
     source = excluded.source, name = excluded.name, subscribers = excluded.subscribers, avg_views = excluded.avg_views,
     language = excluded.language, category = excluded.category`;

const upsertOwners = (rows: number) =>
  `INSERT INTO cms_owners (oid, name, type, industry) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?)').join(', ')}
   ON CONFLICT (oid) DO UPDATE SET name = excluded.name, type = excluded.type, industry = excluded.industry`;

export interface NetworkQuery {
  /** A LIKE pattern on the owner's name (ASCII letters case-insensitive), or null for all. */
  pattern: string | null;
  min_channels: number;
  limit: number;
  sort: 'channels' | 'subscribers';
}

/**
 * A LIKE ignoring the case of ASCII letters only, on both stores: SQLite's LIKE does; Postgres's
 * ILIKE in a UTF-8 locale would also fold 'É' to 'é', so it runs in the C collation.
 */
const caseless = (on: Executor) => (on.dialect === 'postgres' ? 'COLLATE "C" ILIKE' : 'LIKE');

/**
 * The checks' SQL. Sums are cast back to integers: Postgres sums BIGINTs as NUMERIC. Grouping by
 * the owner's key alone is enough for both (Postgres: the other columns depend on the primary key).
 */
export const checksSql = {
  verdict: (on: Executor, channelId: string) => on.get<CmsVerdictRow>(`SELECT ${CMS_VERDICTS_COLUMNS} FROM cms_verdicts WHERE channel_id = ?`, [channelId]),
  putVerdict: (on: Executor, row: CmsVerdictRow) => checksSql.putVerdicts(on, [row]),
  /** Stores verdicts, a batch of rows per statement. */
  async putVerdicts(on: Executor, rows: readonly CmsVerdictRow[]): Promise<void> {
    for (let at = 0; at < rows.length; at += BATCH_ROWS) {
      const batch = rows.slice(at, at + BATCH_ROWS);
      await on.run(upsertVerdicts(batch.length), batch.flatMap((row) => VERDICT_COLUMNS.map((column) => row[column] as SqlValue)));
    }
  },
  owner: (on: Executor, oid: string) => on.get<OwnerRow>('SELECT oid, name, type, industry FROM cms_owners WHERE oid = ?', [oid]),
  putOwner: (on: Executor, owner: OwnerRow) => checksSql.putOwners(on, [owner]),
  /** Stores owners (each oid once: one statement may not update a row twice on Postgres). */
  async putOwners(on: Executor, owners: readonly OwnerRow[]): Promise<void> {
    const unique = [...new Map(owners.map((owner) => [owner.oid, owner])).values()];
    for (let at = 0; at < unique.length; at += BATCH_ROWS) {
      const batch = unique.slice(at, at + BATCH_ROWS);
      await on.run(upsertOwners(batch.length), batch.flatMap((owner) => [owner.oid, owner.name, owner.type, owner.industry]));
    }
  },
  // Sums count the members whose subscribers are known; unknown ones sort last.
  memberStats: async (on: Executor, oid: string) =>
    (await on.get<{ member_count: number; total_subscribers: number }>(
      `SELECT COUNT(*) AS member_count, CAST(COALESCE(SUM(subscribers), 0) AS BIGINT) AS total_subscribers
       FROM cms_verdicts WHERE status = 'managed' AND oid = ?`,
      [oid],
    ))!,
  /** Biggest members first; all of them without `limit`. */
  members: (on: Executor, oid: string, limit?: number) =>
    on.all<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM cms_verdicts WHERE status = 'managed' AND oid = ?
       ORDER BY subscribers DESC NULLS LAST, channel_id${limit === undefined ? '' : ' LIMIT ?'}`,
      limit === undefined ? [oid] : [oid, limit],
    ),
  otherMembers: (on: Executor, oid: string, except: string, limit: number) =>
    on.all<MemberRow>(
      `SELECT ${MEMBER_COLUMNS} FROM cms_verdicts WHERE status = 'managed' AND oid = ? AND channel_id != ?
       ORDER BY subscribers DESC NULLS LAST, channel_id LIMIT ?`,
      [oid, except, limit],
    ),
  networks: (on: Executor, query: NetworkQuery) =>
    on.all<NetworkRow>(
      `SELECT o.oid, o.name, o.type, o.industry, COUNT(*) AS member_count, CAST(SUM(v.subscribers) AS BIGINT) AS total_subscribers
       FROM cms_verdicts v JOIN cms_owners o ON o.oid = v.oid
       WHERE v.status = 'managed'${query.pattern === null ? '' : ` AND o.name ${caseless(on)} ? ESCAPE '\\'`}
       GROUP BY o.oid HAVING COUNT(*) >= ?
       ORDER BY ${query.sort === 'subscribers' ? 'total_subscribers DESC, member_count DESC' : 'member_count DESC, total_subscribers DESC'}, o.oid LIMIT ?`,
      query.pattern === null ? [query.min_channels, query.limit] : [query.pattern, query.min_channels, query.limit],
    ),
  async clearCms(on: Executor): Promise<void> {
    for (const table of ['cms_verdicts', 'cms_owners', 'cms_live_checks', 'cms_signals']) await on.run(`DELETE FROM ${table}`);
  },
  /** The signals a live verdict rests on (JSON), when it has any. */
  verdictSignals: (on: Executor, channelId: string) => on.get<{ signals: string }>('SELECT signals FROM cms_signals WHERE channel_id = ?', [channelId]),
  putVerdictSignals: (on: Executor, channelId: string, signals: string) =>
    on.run('INSERT INTO cms_signals (channel_id, signals) VALUES (?, ?) ON CONFLICT (channel_id) DO UPDATE SET signals = excluded.signals', [channelId, signals]),

  claim: (on: Executor, channelId: string) => on.get<ClaimRow>(`SELECT ${CMS_LIVE_CHECKS_COLUMNS} FROM cms_live_checks WHERE channel_id = ?`, [channelId]),
  putClaim: (on: Executor, channelId: string, token: string, startedAt: number, leaseExpiresAt: number) =>
    on.run(
      `INSERT INTO cms_live_checks (channel_id, token, started_at, lease_expires_at, finished_at, outcome)
       VALUES (?, ?, ?, ?, NULL, NULL)
       ON CONFLICT (channel_id) DO UPDATE SET token = excluded.token, started_at = excluded.started_at,
         lease_expires_at = excluded.lease_expires_at, finished_at = NULL, outcome = NULL`,
      [channelId, token, startedAt, leaseExpiresAt],
    ),
  finishClaim: (on: Executor, finishedAt: number, outcome: string, channelId: string, token: string) =>
    on.run('UPDATE cms_live_checks SET finished_at = ?, outcome = ? WHERE channel_id = ? AND token = ?', [finishedAt, outcome, channelId, token]),
  releaseClaim: (on: Executor, channelId: string, token: string) => on.run('DELETE FROM cms_live_checks WHERE channel_id = ? AND token = ?', [channelId, token]),

  adVerdict: (on: Executor, channelId: string) => on.get<AdVerdictRow>(`SELECT ${AD_VERDICTS_COLUMNS} FROM ad_verdicts WHERE channel_id = ?`, [channelId]),
  putAdVerdict: (on: Executor, row: AdVerdictRow) =>
    on.run(
      `INSERT INTO ad_verdicts (channel_id, monetized, reason, last_checked_at, last_seen_monetized_at, last_seen_demonetized_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (channel_id) DO UPDATE SET monetized = excluded.monetized, reason = excluded.reason,
         last_checked_at = excluded.last_checked_at, last_seen_monetized_at = excluded.last_seen_monetized_at,
         last_seen_demonetized_at = excluded.last_seen_demonetized_at`,
      [row.channel_id, row.monetized, row.reason, row.last_checked_at, row.last_seen_monetized_at, row.last_seen_demonetized_at],
    ),
  external: (on: Executor, channelId: string) => on.get<ExternalRow>(`SELECT ${EXTERNAL_MONETIZATION_COLUMNS} FROM external_monetization WHERE channel_id = ?`, [channelId]),
  putExternal: (on: Executor, row: ExternalRow) =>
    on.run(
      `INSERT INTO external_monetization (channel_id, classifier_version, classified_at, result) VALUES (?, ?, ?, ?)
       ON CONFLICT (channel_id) DO UPDATE SET classifier_version = excluded.classifier_version,
         classified_at = excluded.classified_at, result = excluded.result`,
      [row.channel_id, row.classifier_version, row.classified_at, row.result],
    ),
};

/**
 * A completed processing job saw the channel as longform or mixed: the index the jobs fill
 * (channel-index.ts), in the store, so on a fleet a channel any server's worker processed counts.
 */
export async function processedAsLongform(on: Executor, channelId: string): Promise<boolean> {
  const found = await on.get<{ found: number }>("SELECT 1 AS found FROM indexed_channels WHERE channel_id = ? AND content_type IN ('longform', 'mixed')", [channelId]);
  return found !== undefined;
}
