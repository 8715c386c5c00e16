/**
 * Frames sampled for a chat model, kept for the 2 hours their upload may be reused, in the files
 * dir (a fleet's shared mount, so a repeat through another machine finds them):
 * `<files-dir>/analysis-frames/<user>/<video>-<resolution>-<random>/frame-NNN.jpg`. Frames are
 * sampled in the data dir's scratch folder and the folder is placed whole (placeFolderAtomic)
 * before its handle is recorded, so a handle never points at half a folder; folders older than
 * the reuse window (or left half-copied by a killed job) are swept before each new one.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SampledFrame } from '../../media/frames.js';
import { placeFolderAtomic } from '../../store/atomic-file.js';
import type { MediaResolution } from './providers/media-plan.js';
import { UPLOAD_REUSE_MS, type UploadHandle } from './uploads.js';

const FRAMES = 'analysis-frames';

export const framesRoot = (filesDir: string) => path.join(filesDir, FRAMES);

/** Kept a little past the reuse window, so a job reusing a handle near its end still finds the files. */
const KEEP_MS = UPLOAD_REUSE_MS + 30 * 60 * 1000;

type FramesHandle = Extract<UploadHandle, { kind: 'frames' }>;

/** A new folder's place, relative to the files dir (what the handle records: mounts may differ between machines). */
export function framesFolder(userId: number, videoId: string, resolution: MediaResolution): string {
  return path.join(FRAMES, String(userId), `${videoId}-${resolution}-${randomBytes(4).toString('hex')}`);
}

/**
 * Moves the frames sampled in `made` (a scratch folder) to `folder` under the files dir, whole or
 * not at all; resolves to the frames at their new place.
 */
export async function keepFrames(filesDir: string, folder: string, made: SampledFrame[]): Promise<SampledFrame[]> {
  const dir = path.join(filesDir, folder);
  await placeFolderAtomic(path.dirname(made[0]!.file), dir, made.map((frame) => path.basename(frame.file)));
  return made.map((frame) => ({ ...frame, file: path.join(dir, path.basename(frame.file)) }));
}

export function framesHandle(resolution: MediaResolution, folder: string, frames: SampledFrame[]): UploadHandle {
  return { kind: 'frames', resolution, dir: folder, frames: frames.map((frame) => ({ at_seconds: frame.atSeconds, file: path.basename(frame.file) })) };
}

/** The handle's folder on this machine (a handle recorded before folders were relative names its absolute path). */
export const handleFolder = (filesDir: string, handle: FramesHandle) => path.resolve(filesDir, handle.dir);

/** The handle's frames, or undefined when any of them is gone. */
export async function cachedFrames(filesDir: string, handle: FramesHandle): Promise<SampledFrame[] | undefined> {
  const dir = handleFolder(filesDir, handle);
  const frames: SampledFrame[] = [];
  for (const frame of handle.frames) {
    const file = path.join(dir, frame.file);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) return undefined;
    frames.push({ atSeconds: frame.at_seconds, file, bytes: stat.size });
  }
  return frames.length > 0 ? frames : undefined;
}

/** Removes frame folders older than the reuse window (a folder in use is younger), whichever machine made them. */
export async function sweepFrameFolders(filesDir: string, now = Date.now()): Promise<void> {
  const root = framesRoot(filesDir);
  for (const user of await entries(root)) {
    for (const folder of await entries(path.join(root, user))) {
      const dir = path.join(root, user, folder);
      const stat = await fs.promises.stat(dir).catch(() => null);
      if (stat && now - stat.mtimeMs > KEEP_MS) await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }
}

export async function removeFramesFolder(filesDir: string, folder: string): Promise<void> {
  await fs.promises.rm(path.join(filesDir, folder), { recursive: true, force: true });
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
