/**
 * The download cache: one file per (video, format, quality, time range), shared by every user.
 * A row is `rendering` while the request holding `render_slot` makes the file (other identical
 * requests wait for it), then `ready` for about 30 days of the engine's clock. Expired files are
 * swept by later requests, row and file together in one write transaction, so a file is never
 * deleted under a request that found it ready.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Clock } from '../../clock.js';
import type { Db } from '../../store/database.js';

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
  private readonly byKey;
  private readonly claimRow;
  private readonly markReady;
  private readonly dropClaim;
  private readonly remove;
  private readonly expired;
  private readonly orphaned;

  constructor(
    db: Db,
    private readonly clock: Clock,
    private readonly cdnRoot: string,
  ) {
    this.byKey = db.prepare<[string], CacheRow>('SELECT * FROM download_files WHERE cache_key = ?');
    this.claimRow = db.prepare(
      `INSERT OR REPLACE INTO download_files (cache_key, video_id, format, path, state, render_slot) VALUES (?, ?, ?, ?, 'rendering', ?)`,
    );
    this.markReady = db.prepare(
      `UPDATE download_files SET state = 'ready', render_slot = NULL, size_bytes = ?, duration_seconds = ?, ready_at = ?, expires_at = ?
       WHERE cache_key = ? AND render_slot = ?`,
    );
    this.dropClaim = db.prepare(`DELETE FROM download_files WHERE cache_key = ? AND state = 'rendering' AND render_slot = ?`);
    this.remove = db.prepare('DELETE FROM download_files WHERE cache_key = ?');
    this.expired = db.prepare<[number, number], CacheRow>(
      `SELECT * FROM download_files WHERE state = 'ready' AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
    );
    this.orphaned = db.prepare<[number], CacheRow>(
      `SELECT * FROM download_files WHERE state = 'rendering' AND render_slot NOT IN (SELECT id FROM download_slots) LIMIT ?`,
    );
  }

  get(key: string): CacheRow | undefined {
    return this.byKey.get(key);
  }

  /** A ready row whose file is still there and whose time has not run out. */
  isFresh(row: CacheRow | undefined): boolean {
    return row?.state === 'ready' && (row.expires_at ?? 0) > this.clock.now() && fs.existsSync(this.file(row.path));
  }

  /** Takes the row for rendering (replacing an expired or orphaned one, whose file goes). */
  claim(key: string, videoId: string, format: string, relativePath: string, slotId: string): void {
    const previous = this.get(key);
    if (previous) this.removeFile(previous.path);
    this.claimRow.run(key, videoId, format, relativePath, slotId);
  }

  ready(key: string, slotId: string, sizeBytes: number, durationSeconds: number): boolean {
    const now = this.clock.now();
    return this.markReady.run(sizeBytes, durationSeconds, now, now + CACHE_TTL_MS, key, slotId).changes > 0;
  }

  abandon(key: string, slotId: string): void {
    this.dropClaim.run(key, slotId);
  }

  /**
   * Removes a batch of expired files, and renders whose request died (their slot is gone), with
   * their rows; run inside the caller's write transaction, after dead slots were freed.
   */
  sweep(): void {
    for (const row of [...this.expired.all(this.clock.now(), SWEEP_BATCH), ...this.orphaned.all(SWEEP_BATCH)]) {
      this.removeFile(row.path);
      this.remove.run(row.cache_key);
    }
  }

  file(relativePath: string): string {
    return path.join(this.cdnRoot, relativePath);
  }

  /** The file and its directory (one per cache entry), so no leftovers of a crashed render stay. */
  private removeFile(relativePath: string): void {
    const directory = path.dirname(this.file(relativePath));
    fs.rmSync(directory, { recursive: true, force: true });
    try {
      fs.rmdirSync(path.dirname(directory)); // the video's directory goes with its last file
    } catch {
      // Other files of the video remain (or it is gone already).
    }
  }
}
