/**
 * Writes what a read of the live platform found into the live index, in one transaction, and only
 * once the whole read has parsed (a read that fails stores nothing): the channel's figures and a
 * snapshot of them, its state when it is terminated or gone, the videos listed on its tabs, the
 * videos read from their watch pages with the channels they list (the collab graph), and whether
 * the sweep scanned it for collabs.
 */
import type { Db } from '../../store/database.js';
import { preparedFor } from '../../store/prepared.js';
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

const statements = preparedFor((db: Db) => ({
  // The idx of a channel id, making a bare row (id only: listed, not read) when it is new.
  ensure: db.prepare<[string], number>(
    'INSERT INTO live_channels (channel_id) VALUES (?) ON CONFLICT (channel_id) DO UPDATE SET channel_id = excluded.channel_id RETURNING idx',
  ).pluck(),
  // What the site did not say (language, category…) keeps what an earlier read learned.
  upsertChannel: db.prepare<[Record<string, unknown>], number>(
    `INSERT INTO live_channels (channel_id, handle, title, description, language, language_code, country, category, content_type,
       subscribers, total_views, video_count, created_at, thumbnail_url, first_read_ms, last_read_ms, state)
     VALUES (@channel_id, @handle, @title, @description, @language, @language_code, @country, @category, @content_type,
       @subscribers, @total_views, @video_count, @created_at, @thumbnail_url, @at, @at, 'active')
     ON CONFLICT (channel_id) DO UPDATE SET handle = excluded.handle, title = excluded.title, description = excluded.description,
       language = COALESCE(excluded.language, language), language_code = COALESCE(excluded.language_code, language_code),
       country = COALESCE(excluded.country, country), category = COALESCE(excluded.category, category),
       content_type = COALESCE(excluded.content_type, content_type),
       subscribers = excluded.subscribers, total_views = excluded.total_views, video_count = excluded.video_count,
       created_at = COALESCE(excluded.created_at, created_at), thumbnail_url = excluded.thumbnail_url,
       first_read_ms = COALESCE(first_read_ms, excluded.first_read_ms), last_read_ms = MAX(COALESCE(last_read_ms, 0), excluded.last_read_ms),
       state = 'active', state_reason = NULL, state_at_ms = NULL
     RETURNING idx`,
  ).pluck(),
  snapshot: db.prepare<[number, number, number | null, number | null, number | null]>(
    'INSERT OR REPLACE INTO live_snapshots (channel_idx, at_ms, subscribers, views, videos) VALUES (?, ?, ?, ?, ?)',
  ),
  // When it was first found in this state is kept while it stays so.
  gone: db.prepare<[{ state: string; reason: string | null; at: number; idx: number }]>(
    `UPDATE live_channels SET state_at_ms = CASE WHEN state = @state THEN COALESCE(state_at_ms, @at) ELSE @at END,
       state = @state, state_reason = @reason
     WHERE idx = @idx`,
  ),
  // A listing's estimated date never replaces an exact one. A short the tabs give no date for, seen
  // on a channel whose shorts were listed before, was published since: its first sighting stands in.
  upsertVideo: db.prepare<[Record<string, unknown>]>(
    `INSERT INTO live_videos (video_id, channel_idx, kind, title, views, duration_seconds, published_ms, published_exact, first_seen_ms, read_ms, members_read)
     VALUES (@video_id, @channel_idx, @kind, @title, @views, @duration_seconds,
       COALESCE(@published_ms, CASE WHEN EXISTS (SELECT 1 FROM live_videos o WHERE o.channel_idx = @channel_idx AND o.kind = @kind AND o.first_seen_ms < @at) THEN @at END),
       @published_exact, @at, @at, @members_read)
     ON CONFLICT (video_id) DO UPDATE SET channel_idx = excluded.channel_idx, kind = excluded.kind, title = excluded.title,
       views = excluded.views, duration_seconds = excluded.duration_seconds,
       published_ms = CASE WHEN live_videos.published_exact = 1 AND excluded.published_exact = 0 THEN live_videos.published_ms
                           ELSE COALESCE(@published_ms, live_videos.published_ms) END,
       published_exact = MAX(live_videos.published_exact, excluded.published_exact),
       read_ms = excluded.read_ms, members_read = MAX(live_videos.members_read, excluded.members_read)`,
  ),
  clearMembers: db.prepare<[string]>('DELETE FROM live_video_members WHERE video_id = ?'),
  member: db.prepare<[string, number, number]>('INSERT OR REPLACE INTO live_video_members (video_id, channel_idx, position) VALUES (?, ?, ?)'),
  newestPublished: db.prepare<[{ idx: number }]>(
    `UPDATE live_channels SET
       last_long_ms = COALESCE((SELECT MAX(published_ms) FROM live_videos WHERE channel_idx = @idx AND kind = 'long'), 0),
       last_short_ms = COALESCE((SELECT MAX(published_ms) FROM live_videos WHERE channel_idx = @idx AND kind = 'short'), 0)
     WHERE idx = @idx`,
  ),
  learnLanguage: db.prepare<[string, string, number]>('UPDATE live_channels SET language = ?, language_code = ? WHERE idx = ? AND language IS NULL'),
  scanned: db.prepare<[string]>('UPDATE live_channels SET collab_scanned = 1 WHERE channel_id = ?'),
}));

/** A count the site did not show (0, not exact) is unknown, not zero. */
function figure(channel: PlatformChannel, field: 'subscribers' | 'total_views' | 'video_count'): number | null {
  const exact = channel.counts_exact?.[field] ?? true;
  return !exact && channel[field] === 0 ? null : channel[field];
}

const publishedMs = (video: PlatformVideo): number | null => {
  const ms = Date.parse(video.published_at);
  return Number.isNaN(ms) ? null : ms;
};

/** A read and when it was taken (the platform's time). */
export interface TimedRead {
  read: LiveRead;
  atMs: number;
}

/** Writes reads in one transaction, in their order. */
export function recordReads(db: Db, reads: readonly TimedRead[], languageName: LanguageName): void {
  db.transaction(() => {
    for (const { read, atMs } of reads) storeRead(db, read, atMs, languageName);
  }).immediate();
  noteWrite(db);
}

function storeRead(db: Db, read: LiveRead, atMs: number, languageName: LanguageName): void {
  const s = statements(db);
  const touched = new Set<number>();
  if (read.channel) storeChannel(db, read.channel, atMs);
  if (read.gone) s.gone.run({ state: read.gone.state, reason: read.gone.reason, at: atMs, idx: s.ensure.get(read.gone.channel_id)! });
  for (const video of read.listed ?? []) touched.add(storeVideo(db, video, atMs, false));
  for (const video of read.watched ?? []) {
    const host = storeVideo(db, video, atMs, true);
    touched.add(host);
    const listed = video.channel_ids ?? [video.channel_id];
    s.clearMembers.run(video.video_id);
    if (listed.length > 1) listed.forEach((channelId, position) => s.member.run(video.video_id, s.ensure.get(channelId)!, position));
    const name = video.spoken_language ? languageName(video.spoken_language) : null;
    if (name) s.learnLanguage.run(name, video.spoken_language!, host);
  }
  for (const idx of touched) s.newestPublished.run({ idx });
  if (read.scanned) s.scanned.run(read.scanned);
}

function storeChannel(db: Db, channel: PlatformChannel, atMs: number): number {
  const s = statements(db);
  const idx = s.upsertChannel.get({
    channel_id: channel.channel_id,
    handle: channel.handle || null,
    title: channel.title,
    description: channel.description,
    language: channel.language,
    language_code: channel.language_code,
    country: channel.country,
    category: channel.category,
    content_type: channel.content_type,
    subscribers: figure(channel, 'subscribers'),
    total_views: figure(channel, 'total_views'),
    video_count: figure(channel, 'video_count'),
    created_at: channel.created_at || null,
    thumbnail_url: channel.thumbnail_url || null,
    at: atMs,
  })!;
  s.snapshot.run(idx, atMs, figure(channel, 'subscribers'), figure(channel, 'total_views'), figure(channel, 'video_count'));
  return idx;
}

function storeVideo(db: Db, video: PlatformVideo, atMs: number, fromWatchPage: boolean): number {
  const s = statements(db);
  const channelIdx = s.ensure.get(video.channel_id)!;
  const published = publishedMs(video);
  s.upsertVideo.run({
    video_id: video.video_id,
    channel_idx: channelIdx,
    kind: video.kind,
    title: video.title,
    views: video.views,
    duration_seconds: video.duration_seconds,
    published_ms: published,
    published_exact: fromWatchPage && published !== null ? 1 : 0,
    members_read: fromWatchPage ? 1 : 0,
    at: atMs,
  });
  return channelIdx;
}

/** Writes this process made to each database, for caches over the live index (see liveIndexRevision). */
const localWrites = new WeakMap<Db, number>();

function noteWrite(db: Db): void {
  localWrites.set(db, (localWrites.get(db) ?? 0) + 1);
}

/**
 * Changes whenever the live index may have changed: a write of this process, or a commit of any
 * other connection to the database (SQLite's data_version).
 */
export function liveIndexRevision(db: Db): string {
  return `${db.pragma('data_version', { simple: true }) as number}:${localWrites.get(db) ?? 0}`;
}
