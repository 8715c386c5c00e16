/**
 * Writes what a read of the live platform found into the live index, in one transaction, and only
 * once the whole read has parsed (a read that fails stores nothing): the channel's figures and a
 * snapshot of them, its state when it is terminated or gone, the videos listed on its tabs, the
 * videos read from their watch pages with the channels they list (the collab graph), and whether
 * the sweep scanned it for collabs.
 */
import type { Executor, Store, Transaction } from '../../store/store.js';
import { recordTermination } from '../../features/events/terminations.js';
import type { PlatformChannel, PlatformVideo } from '../../platform/types.js';

export interface LiveRead {
  /** A channel as a read found it. */
  channel?: PlatformChannel;
  /** A channel a read found terminated or deleted. */
  gone?: { channel_id: string; state: 'terminated' | 'missing'; reason: string | null };
  /** Videos listed on a channel's tabs (dates estimated, or none for shorts). */
  listed?: PlatformVideo[];
  /** Videos read from their watch pages: exact dates and every channel they list. */
  watched?: PlatformVideo[];
  /** The channel whose uploads the refresh sweep scanned for collabs. */
  scanned?: string;
}

/** A language's name from its ISO code, as the platform names it (null when it knows none). */
export type LanguageName = (code: string) => string | null;

/** A larger of two values, the same text in both dialects (SQLite's MAX(a, b) is GREATEST on Postgres). */
const larger = (a: string, b: string) => `CASE WHEN ${a} > ${b} THEN ${a} ELSE ${b} END`;

/** The SQL of the writes, one text for both dialects (placeholders are positional). */
const SQL = {
  // The idx of a channel id, making a bare row (id only: listed, not read) when it is new.
  ensure: 'INSERT INTO live_channels (channel_id) VALUES (?) ON CONFLICT (channel_id) DO UPDATE SET channel_id = excluded.channel_id RETURNING idx',
  // What the site did not say (language, category…) keeps what an earlier read learned.
  upsertChannel: `INSERT INTO live_channels (channel_id, handle, title, description, language, language_code, country, category, content_type,
       subscribers, total_views, video_count, created_at, thumbnail_url, first_read_ms, last_read_ms, state)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active')
     ON CONFLICT (channel_id) DO UPDATE SET handle = excluded.handle, title = excluded.title, description = excluded.description,
       language = COALESCE(excluded.language, live_channels.language), language_code = COALESCE(excluded.language_code, live_channels.language_code),
       country = COALESCE(excluded.country, live_channels.country), category = COALESCE(excluded.category, live_channels.category),
       content_type = COALESCE(excluded.content_type, live_channels.content_type),
       subscribers = excluded.subscribers, total_views = excluded.total_views, video_count = excluded.video_count,
       created_at = COALESCE(excluded.created_at, live_channels.created_at), thumbnail_url = excluded.thumbnail_url,
       first_read_ms = COALESCE(live_channels.first_read_ms, excluded.first_read_ms),
       last_read_ms = ${larger('COALESCE(live_channels.last_read_ms, 0)', 'excluded.last_read_ms')},
       state = 'active', state_reason = NULL, state_at_ms = NULL
     RETURNING idx`,
  snapshot: `INSERT INTO live_snapshots (channel_idx, at_ms, subscribers, views, videos) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (channel_idx, at_ms) DO UPDATE SET subscribers = excluded.subscribers, views = excluded.views, videos = excluded.videos`,
  // When it was first found in this state is kept while it stays so (parameters: state, at, state, reason, idx).
  gone: `UPDATE live_channels SET state_at_ms = CASE WHEN state = ? THEN COALESCE(state_at_ms, CAST(? AS BIGINT)) ELSE CAST(? AS BIGINT) END,
       state = ?, state_reason = ?
     WHERE idx = ?`,
  // A listing's estimated date never replaces an exact one, nor its missing count or length a known one. A short the tabs give no date for, seen
  // on a channel whose shorts were listed before, was published since: its first sighting stands in.
  // Parameters: video_id, channel_idx, kind, title, views, duration, published_ms, channel_idx, kind, at, at,
  // published_exact, at, at, members_read, published_ms.
  upsertVideo: `INSERT INTO live_videos (video_id, channel_idx, kind, title, views, duration_seconds, published_ms, published_exact, first_seen_ms, read_ms, members_read)
     VALUES (?, ?, ?, ?, ?, ?,
       COALESCE(CAST(? AS BIGINT), CASE WHEN EXISTS (SELECT 1 FROM live_videos o WHERE o.channel_idx = ? AND o.kind = ? AND o.first_seen_ms < ?) THEN CAST(? AS BIGINT) END),
       ?, ?, ?, ?)
     ON CONFLICT (video_id) DO UPDATE SET channel_idx = excluded.channel_idx, kind = excluded.kind, title = excluded.title,
       views = COALESCE(excluded.views, live_videos.views), duration_seconds = COALESCE(excluded.duration_seconds, live_videos.duration_seconds),
       published_ms = CASE WHEN live_videos.published_exact = 1 AND excluded.published_exact = 0 THEN live_videos.published_ms
                           ELSE COALESCE(CAST(? AS BIGINT), live_videos.published_ms) END,
       published_exact = ${larger('live_videos.published_exact', 'excluded.published_exact')},
       read_ms = excluded.read_ms, members_read = ${larger('live_videos.members_read', 'excluded.members_read')}`,
  clearMembers: 'DELETE FROM live_video_members WHERE video_id = ?',
  member: `INSERT INTO live_video_members (video_id, channel_idx, position) VALUES (?, ?, ?)
     ON CONFLICT (video_id, channel_idx) DO UPDATE SET position = excluded.position`,
  newestPublished: `UPDATE live_channels SET
       last_long_ms = COALESCE((SELECT MAX(published_ms) FROM live_videos WHERE channel_idx = ? AND kind = 'long'), 0),
       last_short_ms = COALESCE((SELECT MAX(published_ms) FROM live_videos WHERE channel_idx = ? AND kind = 'short'), 0)
     WHERE idx = ?`,
  learnLanguage: 'UPDATE live_channels SET language = ?, language_code = ? WHERE idx = ? AND language IS NULL',
  scanned: 'UPDATE live_channels SET collab_scanned = 1 WHERE channel_id = ?',
} as const;

/** The change topic of the live index: its writers announce it, caches over it watch it (revision()). */
export const LIVE_INDEX_TOPIC = 'live_index';

/** The idx of a channel id, making a bare row when it is new. */
export async function ensureChannel(tx: Executor, channelId: string): Promise<number> {
  return (await tx.get<{ idx: number }>(SQL.ensure, [channelId]))!.idx;
}

const publishedMs = (video: PlatformVideo): number | null => {
  if (video.published_at === null) return null;
  const ms = Date.parse(video.published_at);
  return Number.isNaN(ms) ? null : ms;
};

/** A read and when it was taken (the platform's time). */
export interface TimedRead {
  read: LiveRead;
  atMs: number;
}

/** Writes reads in one transaction, in their order, and tells caches over the index (in every process) that it moved. */
export async function recordReads(store: Store, reads: readonly TimedRead[], languageName: LanguageName): Promise<void> {
  await store.transaction(async (tx) => {
    for (const { read, atMs } of reads) await storeRead(tx, read, atMs, languageName);
  });
  await store.changed(LIVE_INDEX_TOPIC);
}

async function storeRead(tx: Transaction, read: LiveRead, atMs: number, languageName: LanguageName): Promise<void> {
  const touched = new Set<number>();
  if (read.channel) await storeChannel(tx, read.channel, atMs);
  if (read.gone) {
    const { state, reason } = read.gone;
    const idx = await ensureChannel(tx, read.gone.channel_id);
    const before = await tx.get<{ state: string; handle: string | null; title: string | null }>('SELECT state, handle, title FROM live_channels WHERE idx = ?', [idx]);
    await tx.run(SQL.gone, [state, atMs, atMs, state, reason, idx]);
    // Its users hear of it once: when the index first holds it in this state.
    if (before?.state !== state) await recordTermination(tx, { channel_id: read.gone.channel_id, handle: before?.handle ?? null, title: before?.title ?? null, state, reason, atMs });
  }
  for (const video of read.listed ?? []) touched.add(await storeVideo(tx, video, atMs, false));
  for (const video of read.watched ?? []) {
    const host = await storeVideo(tx, video, atMs, true);
    touched.add(host);
    const listed = video.channel_ids ?? [video.channel_id];
    await tx.run(SQL.clearMembers, [video.video_id]);
    if (listed.length > 1) {
      for (const [position, channelId] of listed.entries()) await tx.run(SQL.member, [video.video_id, await ensureChannel(tx, channelId), position]);
    }
    const name = video.spoken_language ? languageName(video.spoken_language) : null;
    if (name) await tx.run(SQL.learnLanguage, [name, video.spoken_language!, host]);
  }
  for (const idx of touched) await tx.run(SQL.newestPublished, [idx, idx, idx]);
  if (read.scanned) await tx.run(SQL.scanned, [read.scanned]);
}

async function storeChannel(tx: Executor, channel: PlatformChannel, atMs: number): Promise<number> {
  const [subscribers, views, videos] = [channel.subscribers, channel.total_views, channel.video_count];
  const row = await tx.get<{ idx: number }>(SQL.upsertChannel, [
    channel.channel_id,
    channel.handle || null,
    channel.title,
    channel.description,
    channel.language,
    channel.language_code,
    channel.country,
    channel.category,
    channel.content_type,
    subscribers,
    views,
    videos,
    channel.created_at || null,
    channel.thumbnail_url || null,
    atMs,
    atMs,
  ]);
  await tx.run(SQL.snapshot, [row!.idx, atMs, subscribers, views, videos]);
  return row!.idx;
}

async function storeVideo(tx: Executor, video: PlatformVideo, atMs: number, fromWatchPage: boolean): Promise<number> {
  const channelIdx = await ensureChannel(tx, video.channel_id);
  const published = publishedMs(video);
  await tx.run(SQL.upsertVideo, [
    video.video_id,
    channelIdx,
    video.kind,
    video.title,
    video.views,
    video.duration_seconds,
    published,
    channelIdx,
    video.kind,
    atMs,
    atMs,
    fromWatchPage && published !== null ? 1 : 0,
    atMs,
    atMs,
    fromWatchPage ? 1 : 0,
    published,
  ]);
  return channelIdx;
}

/**
 * Changes whenever the live index may have changed: a write of this process, or of another process
 * on the same database (SQLite sees any commit; Postgres hears the writers' notifications).
 */
export function liveIndexRevision(store: Store): () => string {
  const signal = store.changeSignal(LIVE_INDEX_TOPIC);
  return () => String(signal.generation());
}
