/**
 * Frames sampled for a chat model, kept for the 2 hours their upload may be reused, in the files
 * dir (a fleet's shared mount, so a repeat through another machine finds them):
 * `<files-dir>/analysis-frames/<user>/<video>-<resolution>-<random>/frame-NNN.jpg`. Frames are
 * sampled in the data dir's scratch folder and the folder is placed whole (placeFolderAtomic)
 * before its handle is recorded, so a handle never points at half a folder; folders older than
 * the reuse window (or left half-copied by a killed job) are swept before each new one. Every
 * path is checked to stay under `analysis-frames/` after resolution, links included
 * (contained-path.ts), whatever a recorded handle says; folder and file names are ours.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { containedPath, OutsideRootError } from '../../contained-path.js';
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
  // The video id only names the folder for people looking at it: anything but an id's characters is dropped.
  const name = `${videoId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || 'video'}-${resolution}-${randomBytes(4).toString('hex')}`;
  return path.join(FRAMES, String(Math.trunc(userId)), name);
}

/** A frames folder's name: `<user>/<name>` under `analysis-frames/`, nothing else. */
const FOLDER = /^analysis-frames[\\/]\d+[\\/][A-Za-z0-9_-]+$/;
const FRAME_FILE = /^[A-Za-z0-9_-]+\.jpg$/;

/** The folder under the files dir, or OutsideRootError for one that is not a frames folder or leaves it (links included). */
export function framesFolderPath(filesDir: string, folder: string): string {
  // A handle recorded before folders were relative names its absolute path.
  const relative = path.isAbsolute(folder) ? path.relative(path.resolve(filesDir), folder) : folder;
  if (!FOLDER.test(relative)) throw new OutsideRootError(folder);
  return containedPath(filesDir, relative);
}

/** A frame file of a folder; OutsideRootError for a name that is not a frame's. */
function frameFile(filesDir: string, folder: string, file: string): string {
  if (!FRAME_FILE.test(file)) throw new OutsideRootError(path.join(folder, file));
  return containedPath(filesDir, path.join(path.relative(path.resolve(filesDir), framesFolderPath(filesDir, folder)), file));
}

/**
 * Moves the frames sampled in `made` (a scratch folder) to `folder` under the files dir, whole or
 * not at all; resolves to the frames at their new place.
 */
export async function keepFrames(filesDir: string, folder: string, made: SampledFrame[]): Promise<SampledFrame[]> {
  const dir = framesFolderPath(filesDir, folder);
  await placeFolderAtomic(path.dirname(made[0]!.file), dir, made.map((frame) => path.basename(frame.file)));
  return made.map((frame) => ({ ...frame, file: path.join(dir, path.basename(frame.file)) }));
}

export function framesHandle(resolution: MediaResolution, folder: string, frames: SampledFrame[]): UploadHandle {
  return { kind: 'frames', resolution, dir: folder, frames: frames.map((frame) => ({ at_seconds: frame.atSeconds, file: path.basename(frame.file) })) };
}

/** The handle's frames, or undefined when any of them is gone (or the handle names a place that is not a frames folder's). */
export async function cachedFrames(filesDir: string, handle: FramesHandle): Promise<SampledFrame[] | undefined> {
  const frames: SampledFrame[] = [];
  for (const frame of handle.frames) {
    let file: string;
    try {
      file = frameFile(filesDir, handle.dir, frame.file);
    } catch (error) {
      if (error instanceof OutsideRootError) return undefined;
      throw error;
    }
    const stat = await fs.promises.lstat(file).catch(() => null);
    if (!stat?.isFile()) return undefined;
    frames.push({ atSeconds: frame.at_seconds, file, bytes: stat.size });
  }
  return frames.length > 0 ? frames : undefined;
}

/** Removes frame folders older than the reuse window (a folder in use is younger), whichever machine made them. */
export async function sweepFrameFolders(filesDir: string, now = Date.now()): Promise<void> {
  const root = framesRoot(filesDir);
  for (const user of await entries(root)) {
    if (!/^\d+$/.test(user)) continue;
    for (const folder of await entries(path.join(root, user))) {
      let dir: string;
      try {
        dir = framesFolderPath(filesDir, path.join(FRAMES, user, folder));
      } catch (error) {
        if (error instanceof OutsideRootError) continue; // not ours, or a link out: never followed
        throw error;
      }
      // A link is never followed into, even one that points inside.
      const stat = await fs.promises.lstat(dir).catch(() => null);
      if (stat?.isDirectory() && now - stat.mtimeMs > KEEP_MS) await fs.promises.rm(dir, { recursive: true, force: true });
    }
  }
}

export async function removeFramesFolder(filesDir: string, folder: string): Promise<void> {
  const dir = framesFolderPath(filesDir, folder);
  if ((await fs.promises.lstat(dir).catch(() => null))?.isDirectory()) await fs.promises.rm(dir, { recursive: true, force: true });
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
