/**
 * Uploads of videos to the vision model, per (user, video): a repeat analysis of the same video by
 * the same user within 2 hours of its upload reuses it (`cached: true`) and skips the upload step.
 * Reuse does not extend the 2 hours; a new upload starts them again. Other users never share one.
 */
import type { Clock } from '../../clock.js';
import type { Db } from '../../store/database.js';

export const UPLOAD_REUSE_MS = 2 * 60 * 60 * 1000;

export class AnalysisUploads {
  private readonly statements;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.statements = {
      uploadedAt: db.prepare<[number, string], number>('SELECT uploaded_at FROM analysis_uploads WHERE user_id = ? AND video_id = ?').pluck(),
      record: db.prepare<[number, string, number]>(
        `INSERT INTO analysis_uploads (user_id, video_id, uploaded_at) VALUES (?, ?, ?)
         ON CONFLICT (user_id, video_id) DO UPDATE SET uploaded_at = excluded.uploaded_at`,
      ),
    };
  }

  /** Whether the user's upload of the video can still be reused. */
  reusable(userId: number, videoId: string): boolean {
    const at = this.uploadedAt(userId, videoId);
    return at !== undefined && this.clock.now() - at < UPLOAD_REUSE_MS;
  }

  uploadedAt(userId: number, videoId: string): number | undefined {
    return this.statements.uploadedAt.get(userId, videoId);
  }

  record(userId: number, videoId: string): void {
    this.statements.record.run(userId, videoId, this.clock.now());
  }
}

/** One store per database, so its statements are prepared once per engine. */
const stores = new WeakMap<Db, AnalysisUploads>();

export function analysisUploads(engine: { db: Db; clock: Clock }): AnalysisUploads {
  let store = stores.get(engine.db);
  if (!store) {
    store = new AnalysisUploads(engine.db, engine.clock);
    stores.set(engine.db, store);
  }
  return store;
}
