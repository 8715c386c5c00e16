/**
 * The checks' tables in the engine's index (migrations 6 and 10), behind statements prepared once
 * per database: managed-network verdicts, owners and the signals live verdicts rest on, live-check
 * claims, ad verdicts, and external monetization results.
 */
import type Database from 'better-sqlite3';
import type { Db } from '../../store/database.js';
import { preparedFor } from '../../store/prepared.js';

export type CmsStatus = 'managed' | 'not_managed';

export interface CmsVerdictRow {
  channel_id: string;
  status: CmsStatus;
  oid: string | null;
  checked_at: number;
  source: 'precheck' | 'live';
  name: string;
  subscribers: number;
  avg_views: number;
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
  subscribers: number;
  avg_views: number;
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

type Get<P extends unknown[], R> = Database.Statement<P, R>;

const NETWORK_LIST = (order: string) => `
  SELECT o.oid, o.name, o.type, o.industry, COUNT(*) AS member_count, SUM(v.subscribers) AS total_subscribers
  FROM cms_verdicts v JOIN cms_owners o ON o.oid = v.oid
  WHERE v.status = 'managed' AND (@pattern IS NULL OR o.name LIKE @pattern ESCAPE '\\')
  GROUP BY o.oid HAVING COUNT(*) >= @min_channels
  ORDER BY ${order}, o.oid LIMIT @limit`;

export class ChecksStore {
  readonly verdict: Get<[string], CmsVerdictRow>;
  readonly putVerdict: Database.Statement<[CmsVerdictRow]>;
  readonly owner: Get<[string], OwnerRow>;
  readonly putOwner: Database.Statement<[OwnerRow]>;
  readonly memberStats: Get<[string], { member_count: number; total_subscribers: number }>;
  /** Biggest members first; `limit` -1 for all. */
  readonly members: Get<[string, number], MemberRow>;
  readonly otherMembers: Get<[string, string, number], MemberRow>;
  readonly networksByChannels: Get<[{ pattern: string | null; min_channels: number; limit: number }], NetworkRow>;
  readonly networksBySubscribers: Get<[{ pattern: string | null; min_channels: number; limit: number }], NetworkRow>;
  readonly clearCms: () => void;
  /** The signals a live verdict rests on (JSON), when it has any. */
  readonly verdictSignals: Get<[string], { signals: string }>;
  readonly putVerdictSignals: Database.Statement<[string, string]>;

  readonly claim: Get<[string], ClaimRow>;
  readonly putClaim: Database.Statement<[string, string, number, number]>;
  readonly finishClaim: Database.Statement<[number, string, string, string]>;
  readonly releaseClaim: Database.Statement<[string, string]>;

  /** A completed processing job saw the channel as longform or mixed. */
  readonly processedAsLongform: Get<[string], { found: 1 }>;
  readonly adVerdict: Get<[string], AdVerdictRow>;
  readonly putAdVerdict: Database.Statement<[AdVerdictRow]>;
  readonly external: Get<[string], ExternalRow>;
  readonly putExternal: Database.Statement<[ExternalRow]>;

  constructor(readonly db: Db) {
    this.verdict = db.prepare('SELECT * FROM cms_verdicts WHERE channel_id = ?');
    this.putVerdict = db.prepare(
      `INSERT INTO cms_verdicts (channel_id, status, oid, checked_at, source, name, subscribers, avg_views, language, category)
       VALUES (@channel_id, @status, @oid, @checked_at, @source, @name, @subscribers, @avg_views, @language, @category)
       ON CONFLICT (channel_id) DO UPDATE SET status = excluded.status, oid = excluded.oid, checked_at = excluded.checked_at,
         source = excluded.source, name = excluded.name, subscribers = excluded.subscribers, avg_views = excluded.avg_views,
         language = excluded.language, category = excluded.category`,
    );
    this.owner = db.prepare('SELECT oid, name, type, industry FROM cms_owners WHERE oid = ?');
    this.putOwner = db.prepare(
      `INSERT INTO cms_owners (oid, name, type, industry) VALUES (@oid, @name, @type, @industry)
       ON CONFLICT (oid) DO UPDATE SET name = excluded.name, type = excluded.type, industry = excluded.industry`,
    );
    this.memberStats = db.prepare(
      `SELECT COUNT(*) AS member_count, COALESCE(SUM(subscribers), 0) AS total_subscribers
       FROM cms_verdicts WHERE status = 'managed' AND oid = ?`,
    );
    const memberColumns = 'channel_id, name, subscribers, avg_views, language, category';
    this.members = db.prepare(
      `SELECT ${memberColumns} FROM cms_verdicts WHERE status = 'managed' AND oid = ?
       ORDER BY subscribers DESC, channel_id LIMIT ?`,
    );
    this.otherMembers = db.prepare(
      `SELECT ${memberColumns} FROM cms_verdicts WHERE status = 'managed' AND oid = ? AND channel_id != ?
       ORDER BY subscribers DESC, channel_id LIMIT ?`,
    );
    this.networksByChannels = db.prepare(NETWORK_LIST('member_count DESC, total_subscribers DESC'));
    this.networksBySubscribers = db.prepare(NETWORK_LIST('total_subscribers DESC, member_count DESC'));
    const clear = ['DELETE FROM cms_verdicts', 'DELETE FROM cms_owners', 'DELETE FROM cms_live_checks', 'DELETE FROM cms_signals'].map((sql) => db.prepare(sql));
    this.clearCms = () => clear.forEach((statement) => statement.run());
    this.verdictSignals = db.prepare('SELECT signals FROM cms_signals WHERE channel_id = ?');
    this.putVerdictSignals = db.prepare(
      'INSERT INTO cms_signals (channel_id, signals) VALUES (?, ?) ON CONFLICT (channel_id) DO UPDATE SET signals = excluded.signals',
    );

    this.claim = db.prepare('SELECT * FROM cms_live_checks WHERE channel_id = ?');
    this.putClaim = db.prepare(
      `INSERT INTO cms_live_checks (channel_id, token, started_at, lease_expires_at, finished_at, outcome)
       VALUES (?, ?, ?, ?, NULL, NULL)
       ON CONFLICT (channel_id) DO UPDATE SET token = excluded.token, started_at = excluded.started_at,
         lease_expires_at = excluded.lease_expires_at, finished_at = NULL, outcome = NULL`,
    );
    this.finishClaim = db.prepare('UPDATE cms_live_checks SET finished_at = ?, outcome = ? WHERE channel_id = ? AND token = ?');
    this.releaseClaim = db.prepare('DELETE FROM cms_live_checks WHERE channel_id = ? AND token = ?');

    this.processedAsLongform = db.prepare(
      "SELECT 1 AS found FROM indexed_channels WHERE channel_id = ? AND content_type IN ('longform', 'mixed')",
    );
    this.adVerdict = db.prepare('SELECT * FROM ad_verdicts WHERE channel_id = ?');
    this.putAdVerdict = db.prepare(
      `INSERT INTO ad_verdicts (channel_id, monetized, reason, last_checked_at, last_seen_monetized_at, last_seen_demonetized_at)
       VALUES (@channel_id, @monetized, @reason, @last_checked_at, @last_seen_monetized_at, @last_seen_demonetized_at)
       ON CONFLICT (channel_id) DO UPDATE SET monetized = excluded.monetized, reason = excluded.reason,
         last_checked_at = excluded.last_checked_at, last_seen_monetized_at = excluded.last_seen_monetized_at,
         last_seen_demonetized_at = excluded.last_seen_demonetized_at`,
    );
    this.external = db.prepare('SELECT * FROM external_monetization WHERE channel_id = ?');
    this.putExternal = db.prepare(
      `INSERT INTO external_monetization (channel_id, classifier_version, classified_at, result)
       VALUES (@channel_id, @classifier_version, @classified_at, @result)
       ON CONFLICT (channel_id) DO UPDATE SET classifier_version = excluded.classifier_version,
         classified_at = excluded.classified_at, result = excluded.result`,
    );
  }
}

/** The statements of this database, prepared on first use. */
export const checksStore = preparedFor((db) => new ChecksStore(db));
