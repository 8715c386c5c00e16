/**
 * The live index's reads of its channel tables (SQLite migration "the live index: …", Postgres migration "the live index: channels read, snapshots, videos and their channels, refresh claims"): channels, their snapshots, videos
 * and the channels collab videos list. One place for the SQL the live index reads, prepared once
 * per connection; the writes are in read-recorder.ts.
 */
import type { SqlValue, StoreDialect } from '../../store/store.js';
import type { ContentType } from '../../platform/types.js';
import type { IndexedChannel, ScannedChannel } from '../channels.js';

/** Named columns, not `*`: a prepared statement must keep its shape when a migration adds one. */
export const LIVE_CHANNELS_COLUMNS = 'idx, channel_id, handle, title, description, language, language_code, country, category, content_type, subscribers, total_views, video_count, created_at, thumbnail_url, first_read_ms, last_read_ms, state, state_reason, state_at_ms, collab_scanned, last_long_ms, last_short_ms';
const LIVE_VIDEOS_COLUMNS = 'video_id, channel_idx, kind, title, views, duration_seconds, published_ms, published_exact, first_seen_ms, read_ms, members_read';

export interface LiveChannelRow {
  idx: number;
  channel_id: string;
  handle: string | null;
  title: string | null;
  description: string;
  language: string | null;
  language_code: string | null;
  country: string | null;
  category: string | null;
  content_type: string | null;
  subscribers: number | null;
  total_views: number | null;
  video_count: number | null;
  created_at: string | null;
  thumbnail_url: string | null;
  first_read_ms: number | null;
  last_read_ms: number | null;
  state: 'active' | 'terminated' | 'missing';
  state_reason: string | null;
  state_at_ms: number | null;
  collab_scanned: number;
  last_long_ms: number;
  last_short_ms: number;
}

export interface SnapshotRow {
  at_ms: number;
  subscribers: number | null;
  views: number | null;
  videos: number | null;
}

export interface LiveVideoRow {
  video_id: string;
  channel_idx: number;
  kind: string;
  title: string;
  /** null: the site gave no count (or a text that could not be read). */
  views: number | null;
  /** null: the listing gave no length (Shorts). */
  duration_seconds: number | null;
  published_ms: number | null;
  published_exact: number;
  first_seen_ms: number;
  read_ms: number;
  members_read: number;
}

/** A collab video and one channel it lists (rows come grouped by video, host first). */
export interface ListingMemberRow {
  video_id: string;
  host_idx: number;
  kind: string;
  published_ms: number;
  first_seen_ms: number;
  views: number | null;
  known: number;
  member: number;
}

/** A scan's lean row, with what scans over many channels read of each without another query. */
const SCANNED_COLUMNS =
  'idx, channel_id, handle, title, language, language_code, content_type, created_at, category, collab_scanned, first_read_ms, last_read_ms, last_long_ms, last_short_ms';

/** A collab video is known when one of the channels it lists was scanned by the sweep. */
const KNOWN = `EXISTS (SELECT 1 FROM live_video_members k JOIN live_channels kc ON kc.idx = k.channel_idx
  WHERE k.video_id = v.video_id AND kc.collab_scanned = 1)`;
/** A listing's publish time: exact when read from its watch page, else when the engine first saw it. */
const PUBLISHED = 'COALESCE(v.published_ms, v.first_seen_ms)';

/**
 * The SQL of the live index's reads, the same text on SQLite and PostgreSQL (the store numbers the
 * placeholders for Postgres); where the dialects differ (JSON, arrays) see `inList` and scanSql.
 */
export const CHANNEL_SQL = {
  byId: `SELECT ${LIVE_CHANNELS_COLUMNS} FROM live_channels WHERE channel_id = ?`,
  byIdx: `SELECT ${LIVE_CHANNELS_COLUMNS} FROM live_channels WHERE idx = ?`,
  idOf: 'SELECT channel_id FROM live_channels WHERE idx = ?',
  idxOf: 'SELECT idx FROM live_channels WHERE channel_id = ?',
  createdSince: `SELECT ${LIVE_CHANNELS_COLUMNS} FROM live_channels WHERE first_read_ms IS NOT NULL AND state = 'active' AND created_at >= ? ORDER BY idx`,
  coverage: 'SELECT first_read_ms, last_read_ms FROM live_channels WHERE idx = ?',
  coverageById: 'SELECT idx, first_read_ms, last_read_ms FROM live_channels WHERE channel_id = ?',
  snapshotsBetween: 'SELECT at_ms, subscribers, views, videos FROM live_snapshots WHERE channel_idx = ? AND at_ms BETWEEN ? AND ? ORDER BY at_ms',
  // Published videos only (kind long or short), newest first, straight off the index's order.
  recentOfKind: `SELECT video_id, kind, published_ms, views FROM live_videos
     WHERE channel_idx = ? AND kind = ? AND published_ms IS NOT NULL ORDER BY published_ms DESC LIMIT ?`,
  recentOfAnyKind: `SELECT video_id, kind, published_ms, views FROM live_videos
     WHERE channel_idx = ? AND kind IN ('long', 'short') AND published_ms IS NOT NULL ORDER BY published_ms DESC LIMIT ?`,
  publishedSince: "SELECT 1 AS found FROM live_videos WHERE channel_idx = ? AND kind IN ('long', 'short') AND published_ms > ? LIMIT 1",
  publishedSinceOfKind: 'SELECT 1 AS found FROM live_videos WHERE channel_idx = ? AND kind = ? AND published_ms > ? LIMIT 1',
  videoTitle: 'SELECT title FROM live_videos WHERE video_id = ?',
  // Ranked by views: a video whose count no read gave cannot be placed, so it is left out.
  topVideos: "SELECT video_id, title, views, kind FROM live_videos WHERE channel_idx = ? AND kind IN ('long', 'short') AND views IS NOT NULL ORDER BY views DESC, video_id LIMIT ?",
  video: `SELECT ${LIVE_VIDEOS_COLUMNS} FROM live_videos WHERE video_id = ?`,
  // Collab listings.
  involving: `SELECT v.video_id, v.channel_idx AS host_idx, v.kind, ${PUBLISHED} AS published_ms, v.first_seen_ms, v.views,
       CASE WHEN ${KNOWN} THEN 1 ELSE 0 END AS known, m.channel_idx AS member
     FROM live_video_members mine JOIN live_videos v ON v.video_id = mine.video_id
     JOIN live_video_members m ON m.video_id = v.video_id
     WHERE mine.channel_idx = ? AND v.first_seen_ms <= ?
     ORDER BY ${PUBLISHED} DESC, v.video_id, m.position`,
  knownListings: `SELECT v.video_id, v.channel_idx AS host_idx, v.kind, ${PUBLISHED} AS published_ms, v.first_seen_ms, v.views, 1 AS known, m.channel_idx AS member
     FROM live_videos v JOIN live_video_members m ON m.video_id = v.video_id
     WHERE v.first_seen_ms <= ? AND ${KNOWN}
     ORDER BY ${PUBLISHED} DESC, v.video_id, m.position`,
  listedOnKnown: `SELECT 1 AS found FROM live_video_members m JOIN live_videos v ON v.video_id = m.video_id
     WHERE m.channel_idx = ? AND v.first_seen_ms <= ? AND ${KNOWN} LIMIT 1`,
  checkedChannels: `SELECT idx FROM live_channels WHERE collab_scanned = 1
     UNION SELECT m.channel_idx FROM live_video_members m JOIN live_videos v ON v.video_id = m.video_id
     WHERE v.first_seen_ms <= ? AND ${KNOWN}`,
} as const;

/**
 * `column IN (the list)`, the list one parameter: JSON text read by json_each on SQLite, an array
 * on PostgreSQL. Returns the condition and the parameter to bind.
 */
export function inList(dialect: StoreDialect, column: string, values: readonly (string | number)[], type: 'text' | 'bigint'): [string, SqlValue] {
  return dialect === 'postgres' ? [`${column} = ANY(?::${type}[])`, values] : [`${column} IN (SELECT value FROM json_each(?))`, JSON.stringify(values)];
}

/** The longest gap between two snapshots a figure is read across (a straight line between them): see snapshot-statistics.ts. */
export const MAX_INTERPOLATION_GAP_MS = 12 * 3_600_000;

/** Newest uploads a scan for recent uploads of a kind brings with each row (the alert rules read 20). */
export const ATTACHED_RECENT_VIDEOS = 20;

/**
 * Rows per page of a scan: one round trip each. Small enough that a page's rows die young (an alert
 * scan over 100,000 channels with pages of 2,000 spent a second more in the garbage collector).
 */
export const SCAN_PAGE = 250;

export interface ScanShape {
  contentTypes: boolean;
  publishedKind?: 'long' | 'short';
  createdBy: boolean;
  figuresBefore?: readonly number[];
}

/**
 * A page of a scan of the read, active channels, after a key (parameters: the content types when
 * filtered, the publish time, the creation date, then the key and the page's size). One narrowed to
 * channels with a recent upload of a kind (an outlier scan) brings each channel's newest uploads of
 * that kind along: one query for the scan instead of one more per channel.
 */
export function scanSql(dialect: StoreDialect, options: ScanShape): string {
  const postgres = dialect === 'postgres';
  // JSON arrays of rows: text in both dialects, so the rows parse alike.
  const jsonRows = (columns: string) => (postgres ? `COALESCE(json_agg(json_build_array(${columns}))::text, '[]')` : `json_group_array(json_array(${columns}))`);
  const where = ['first_read_ms IS NOT NULL', "state = 'active'"];
  if (options.contentTypes) where.push(postgres ? 'content_type = ANY(?::text[])' : 'content_type IN (SELECT value FROM json_each(?))');
  if (options.publishedKind) where.push(`${options.publishedKind === 'short' ? 'last_short_ms' : 'last_long_ms'} > ?`);
  if (options.createdBy) where.push('created_at IS NOT NULL AND created_at <= ?');
  where.push('idx > ?');
  const recent = options.publishedKind
    ? `, '${options.publishedKind}' AS recent_kind, (SELECT ${jsonRows('video_id, published_ms, views')} FROM (
         SELECT video_id, published_ms, views FROM live_videos v WHERE v.channel_idx = live_channels.idx AND v.kind = '${options.publishedKind}'
           AND v.published_ms IS NOT NULL ORDER BY v.published_ms DESC LIMIT ${ATTACHED_RECENT_VIDEOS}) newest) AS recent`
    : '';
  // The snapshots that can give the figures at those instants (within the interpolation gap of each).
  const windows = (options.figuresBefore ?? []).map((before) => `s.at_ms BETWEEN last_read_ms - ${before + MAX_INTERPOLATION_GAP_MS} AND last_read_ms - ${before - MAX_INTERPOLATION_GAP_MS}`);
  const snapshots = windows.length
    ? `, (SELECT ${jsonRows('at_ms, subscribers, views')} FROM (
         SELECT at_ms, subscribers, views FROM live_snapshots s WHERE s.channel_idx = live_channels.idx AND (${windows.join(' OR ')}) ORDER BY at_ms) around) AS snapshots,
       '${JSON.stringify(options.figuresBefore)}' AS snapshots_before`
    : '';
  return `SELECT ${SCANNED_COLUMNS}${recent}${snapshots} FROM live_channels WHERE ${where.join(' AND ')} ORDER BY idx LIMIT ?`;
}

/** A channel row as the index's interfaces show it: what the site did not show stays null (or empty text). */
export function indexedChannel(row: LiveChannelRow): IndexedChannel {
  return {
    idx: row.idx,
    channel_id: row.channel_id,
    handle: row.handle ?? '',
    title: row.title ?? row.channel_id,
    description: row.description,
    language: row.language,
    language_code: row.language_code,
    country: row.country,
    category: row.category,
    content_type: row.content_type as ContentType | null,
    subscribers: row.subscribers,
    total_views: row.total_views,
    video_count: row.video_count,
    created_at: row.created_at ?? '',
    thumbnail_url: row.thumbnail_url ?? '',
    collab_scanned: row.collab_scanned === 1,
  };
}

/** A scan row of the live index: the lean row, plus its coverage and newest uploads (read by statistics and alert scans). */
export interface LiveScannedChannel extends ScannedChannel {
  first_read_ms: number;
  last_read_ms: number;
  last_long_ms: number;
  last_short_ms: number;
  /** An outlier scan's row: the newest uploads of its kind, as JSON [[video_id, published_ms, views], …]. */
  recent_kind?: 'long' | 'short';
  recent?: string;
  /** A scan asked for figures at instants before the latest read: the snapshots around them, JSON [[at_ms, subscribers, views], …], oldest first. */
  snapshots?: string;
  /** Those instants (ms before the latest read), JSON. */
  snapshots_before?: string;
}

type ScanRow = Pick<
  LiveChannelRow,
  'idx' | 'channel_id' | 'handle' | 'title' | 'language' | 'language_code' | 'content_type' | 'created_at' | 'category' | 'collab_scanned' | 'first_read_ms' | 'last_read_ms' | 'last_long_ms' | 'last_short_ms'
>;

export function scannedChannel(row: ScanRow & Pick<LiveScannedChannel, 'recent_kind' | 'recent' | 'snapshots' | 'snapshots_before'>): LiveScannedChannel {
  const scanned: LiveScannedChannel = {
    idx: row.idx,
    channel_id: row.channel_id,
    handle: row.handle ?? '',
    title: row.title ?? row.channel_id,
    language: row.language,
    language_code: row.language_code,
    content_type: row.content_type as ContentType | null,
    created_at: row.created_at ?? '',
    category: row.category,
    collab_scanned: row.collab_scanned === 1,
    first_read_ms: row.first_read_ms!,
    last_read_ms: row.last_read_ms!,
    last_long_ms: row.last_long_ms,
    last_short_ms: row.last_short_ms,
  };
  if (row.recent_kind !== undefined) Object.assign(scanned, { recent_kind: row.recent_kind, recent: row.recent });
  if (row.snapshots !== undefined) Object.assign(scanned, { snapshots: row.snapshots, snapshots_before: row.snapshots_before });
  return scanned;
}

/** A scan row of this index (it carries its coverage), or something else to look up. */
export function isLiveScanRow(channel: unknown): channel is LiveScannedChannel {
  return typeof channel === 'object' && channel !== null && 'last_read_ms' in channel && 'last_long_ms' in channel;
}
