/**
 * The download cache: one file per (video, format, quality, time range), shared by every user.
 * A row is `rendering` while the request holding `render_slot` makes the file (other identical
 * requests wait for it), then `ready` for about 30 days of the engine's clock. Expired files are
 * swept by later requests, row and file together in one write transaction holding the file's
 * lock, so a file is never deleted under a request that found it ready. The rows are in the
 * engine's store and the files in its files dir: on a fleet, one machine renders a file and the
 * others wait for it (the render-once rule holds across machines).
 */
import fs from 'node:fs';
import path from 'node:path';
import { isVideoId } from '../../../core/channel-input.js';
import type { Clock } from '../../clock.js';
import { containedPath, OutsideRootError } from '../../contained-path.js';
import type { Executor } from '../../store/store.js';

/** Named columns, not `*`: a prepared statement must keep its shape when a migration adds one. */
const DOWNLOAD_FILES_COLUMNS = 'cache_key, video_id, format, path, state, render_slot, size_bytes, duration_seconds, ready_at, expires_at';

export const CACHE_TTL_MS = 30 * 24 * 3600 * 1000;
/** Expired files removed per request, so no request pays for a large sweep. */
const SWEEP_BATCH = 20;

export interface CacheRow {
  cache_key: string;
  video_id: string;
  format: string;
  path: string;
  state: 'rendering' | 'ready';
  render_slot: string | null;
  size_bytes: number | null;
  duration_seconds: number | null;
  ready_at: number | null;
  expires_at: number | null;
}

export class DownloadCache {
  constructor(
    private readonly clock: Clock,
    private readonly cdnRoot: string,
  ) {}

  get(on: Executor, key: string): Promise<CacheRow | undefined> {
    return on.get<CacheRow>(`SELECT ${DOWNLOAD_FILES_COLUMNS} FROM download_files WHERE cache_key = ?`, [key]);
  }

  /** A ready row whose file is still there and whose time has not run out. */
  isFresh(row: CacheRow | undefined): boolean {
    return row?.state === 'ready' && (row.expires_at ?? 0) > this.clock.now() && isEntryPath(row.path) && fs.existsSync(this.file(row.path));
  }

  /** Takes the row for rendering (replacing an expired or orphaned one, whose file goes); the caller holds the file's lock. */
  async claim(on: Executor, key: string, videoId: string, format: string, relativePath: string, slotId: string): Promise<void> {
    const previous = await this.get(on, key);
    if (previous) this.removeFile(previous.path);
    await on.run(
      `INSERT INTO download_files (cache_key, video_id, format, path, state, render_slot) VALUES (?, ?, ?, ?, 'rendering', ?)
       ON CONFLICT (cache_key) DO UPDATE SET video_id = excluded.video_id, format = excluded.format, path = excluded.path, state = 'rendering',
         render_slot = excluded.render_slot, size_bytes = NULL, duration_seconds = NULL, ready_at = NULL, expires_at = NULL`,
      [key, videoId, format, relativePath, slotId],
    );
  }

  async ready(on: Executor, key: string, slotId: string, sizeBytes: number, durationSeconds: number): Promise<boolean> {
    const now = this.clock.now();
    const { changes } = await on.run(
      `UPDATE download_files SET state = 'ready', render_slot = NULL, size_bytes = ?, duration_seconds = ?, ready_at = ?, expires_at = ?
       WHERE cache_key = ? AND render_slot = ?`,
      [sizeBytes, durationSeconds, now, now + CACHE_TTL_MS, key, slotId],
    );
    return changes > 0;
  }

  async abandon(on: Executor, key: string, slotId: string): Promise<void> {
    await on.run(`DELETE FROM download_files WHERE cache_key = ? AND state = 'rendering' AND render_slot = ?`, [key, slotId]);
  }

  /** Expired files, and renders whose request died (their slot is gone): what a sweep removes, looked at again under each file's lock. */
  async sweepable(on: Executor): Promise<CacheRow[]> {
    return [
      ...(await on.all<CacheRow>(`SELECT ${DOWNLOAD_FILES_COLUMNS} FROM download_files WHERE state = 'ready' AND expires_at <= ? ORDER BY expires_at LIMIT ?`, [this.clock.now(), SWEEP_BATCH])),
      ...(await on.all<CacheRow>(`SELECT ${DOWNLOAD_FILES_COLUMNS} FROM download_files WHERE state = 'rendering' AND render_slot NOT IN (SELECT id FROM download_slots) LIMIT ?`, [SWEEP_BATCH])),
    ];
  }

  /** Removes one swept row and its file if it is still what the sweep saw (inside a transaction holding the file's lock). */
  async remove(on: Executor, seen: CacheRow): Promise<void> {
    const row = await this.get(on, seen.cache_key);
    if (!row || row.state !== seen.state || row.render_slot !== seen.render_slot || row.expires_at !== seen.expires_at) return;
    this.removeFile(row.path);
    await on.run('DELETE FROM download_files WHERE cache_key = ?', [row.cache_key]);
  }

  /** The entry's file under the CDN root; OutsideRootError for a path that is not an entry's or leaves the root (links included). */
  file(relativePath: string): string {
    if (!isEntryPath(relativePath)) throw new OutsideRootError(relativePath);
    return containedPath(this.cdnRoot, relativePath);
  }

  /**
   * The file and its directory (one per cache entry), so no leftovers of a crashed render stay;
   * a row whose path is not an entry's inside the root (a row from an older version) loses only its row.
   */
  private removeFile(relativePath: string): void {
    let directory: string;
    try {
      directory = path.dirname(this.file(relativePath));
    } catch (error) {
      if (error instanceof OutsideRootError) return;
      throw error;
    }
    // rm does not follow links inside the folder, and the folder itself was checked to be the entry's own.
    fs.rmSync(directory, { recursive: true, force: true });
    try {
      fs.rmdirSync(path.dirname(directory)); // the video's directory goes with its last file
    } catch {
      // Other files of the video remain (or it is gone already).
    }
  }
}

/** An entry's path has exactly the shape cacheTarget makes: `downloads/<video id>/<variant>/<name>`, no `.` or `..` part. */
export function isEntryPath(relativePath: string): boolean {
  const parts = relativePath.split('/');
  return parts.length === 4 && parts[0] === 'downloads' && isVideoId(parts[1]!) && parts.every((part) => part !== '' && part !== '.' && part !== '..' && !part.includes('\\') && !part.includes('\0'));
}
