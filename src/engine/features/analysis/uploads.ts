/**
 * Uploads of videos to the vision model, per (user, video): a repeat analysis of the same video by
 * the same user within 2 hours of its upload reuses it (`cached: true`) and skips the upload step.
 * Reuse does not extend the 2 hours; a new upload starts them again. Other users never share one.
 *
 * A real model's upload leaves a handle to reuse: the Gemini file, or the folder of frames sent to
 * a chat model (in the files dir: frame-cache.ts). A handle serves a request of its resolution (a
 * Gemini file uploaded at `default` also serves `low`: the API lowers it itself). The stand-in
 * analyst's uploads have no handle. The rows are in the engine's store: on a fleet's PostgreSQL an
 * upload made through one machine is reused through every other.
 */
import type { Clock } from '../../clock.js';
import type { Store } from '../../store/store.js';
import type { MediaResolution } from './providers/media-plan.js';

export const UPLOAD_REUSE_MS = 2 * 60 * 60 * 1000;

export type UploadHandle =
  | { kind: 'gemini-file'; base_url: string; name: string; uri: string; mime_type: string; resolution: MediaResolution }
  /** `dir`: the frames' folder, relative to the files dir (absolute in handles recorded before it was). */
  | { kind: 'frames'; resolution: MediaResolution; dir: string; frames: Array<{ at_seconds: number; file: string }> };

export interface Upload {
  uploadedAt: number;
  handle: UploadHandle | null;
}

/** Whether an upload's handle can answer a request at `resolution`. */
export function handleServes(handle: UploadHandle, resolution: MediaResolution): boolean {
  if (handle.kind === 'frames') return handle.resolution === resolution;
  return handle.resolution === 'default' || resolution === 'low';
}

export class AnalysisUploads {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** The user's last upload of the video, however old. */
  async get(userId: number, videoId: string): Promise<Upload | undefined> {
    const row = await this.store.get<{ uploaded_at: number; handle: string | null }>('SELECT uploaded_at, handle FROM analysis_uploads WHERE user_id = ? AND video_id = ?', [
      userId,
      videoId,
    ]);
    return row && { uploadedAt: row.uploaded_at, handle: row.handle === null ? null : (JSON.parse(row.handle) as UploadHandle) };
  }

  /** The user's upload of the video while it may still be reused (within 2 hours of it). */
  async fresh(userId: number, videoId: string): Promise<Upload | undefined> {
    const upload = await this.get(userId, videoId);
    return upload && this.clock.now() - upload.uploadedAt < UPLOAD_REUSE_MS ? upload : undefined;
  }

  /** Whether the user's upload of the video can still be reused (at `resolution`, when its handle says which). */
  async reusable(userId: number, videoId: string, resolution?: MediaResolution): Promise<boolean> {
    const upload = await this.fresh(userId, videoId);
    return upload !== undefined && (upload.handle === null || resolution === undefined || handleServes(upload.handle, resolution));
  }

  async uploadedAt(userId: number, videoId: string): Promise<number | undefined> {
    return (await this.get(userId, videoId))?.uploadedAt;
  }

  async record(userId: number, videoId: string, handle: UploadHandle | null = null): Promise<void> {
    await this.store.run(
      `INSERT INTO analysis_uploads (user_id, video_id, uploaded_at, handle) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id, video_id) DO UPDATE SET uploaded_at = excluded.uploaded_at, handle = excluded.handle`,
      [userId, videoId, this.clock.now(), handle === null ? null : JSON.stringify(handle)],
    );
  }
}

export function analysisUploads(engine: { store: Store; clock: Clock }): AnalysisUploads {
  return new AnalysisUploads(engine.store, engine.clock);
}
