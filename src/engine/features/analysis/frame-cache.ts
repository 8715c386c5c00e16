/**
 * Frames sampled for a chat model, kept for the 2 hours their upload may be reused:
 * `<data-dir>/analysis-frames/<user>/<video>-<resolution>-<random>/frame-NNN.jpg`. A folder is
 * written whole before its handle is recorded, so a handle never points at half a folder; folders
 * older than the reuse window (or left by a killed job) are swept before each new one.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SampledFrame } from '../../media/frames.js';
import type { MediaResolution } from './providers/media-plan.js';
import { UPLOAD_REUSE_MS, type UploadHandle } from './uploads.js';

export const framesRoot = (dataDir: string) => path.join(dataDir, 'analysis-frames');

/** Kept a little past the reuse window, so a job reusing a handle near its end still finds the files. */
const KEEP_MS = UPLOAD_REUSE_MS + 30 * 60 * 1000;

export async function newFramesFolder(dataDir: string, userId: number, videoId: string, resolution: MediaResolution): Promise<string> {
  const dir = path.join(framesRoot(dataDir), String(userId), `${videoId}-${resolution}-${randomBytes(4).toString('hex')}`);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

export function framesHandle(resolution: MediaResolution, dir: string, frames: SampledFrame[]): UploadHandle {
  return { kind: 'frames', resolution, dir, frames: frames.map((frame) => ({ at_seconds: frame.atSeconds, file: path.basename(frame.file) })) };
}

/** The handle's frames, or undefined when any of them is gone. */
export async function cachedFrames(handle: Extract<UploadHandle, { kind: 'frames' }>): Promise<SampledFrame[] | undefined> {
  const frames: SampledFrame[] = [];
  for (const frame of handle.frames) {
    const file = path.join(handle.dir, frame.file);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) return undefined;
    frames.push({ atSeconds: frame.at_seconds, file, bytes: stat.size });
  }
  return frames.length > 0 ? frames : undefined;
}

/** Removes frame folders older than the reuse window (a folder in use is younger). */
export async function sweepFrameFolders(dataDir: string, now = Date.now()): Promise<void> {
  const root = framesRoot(dataDir);
  for (const user of await entries(root)) {
    for (const folder of await entries(path.join(root, user))) {
      const dir = path.join(root, user, folder);
      const stat = await fs.promises.stat(dir).catch(() => null);
      if (stat && now - stat.mtimeMs > KEEP_MS) await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }
}

export async function removeFramesFolder(dir: string): Promise<void> {
  await fs.promises.rm(dir, { recursive: true, force: true });
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
