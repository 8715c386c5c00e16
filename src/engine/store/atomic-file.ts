import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { failIfDiskFullFault } from './disk-space.js';
import type { Settings } from './settings.js';

/**
 * Writes a file so that readers see either nothing or the whole of it: a temporary file in
 * the same directory, flushed, then renamed over the target (rename is atomic on one filesystem).
 * A write that fails (a full disk) removes the temporary file. `settings` lets the `disk-full`
 * fault fail it on purpose.
 */
/**
 * Moves a finished file (made in the data dir's scratch folder) to `file`, whole or not at all:
 * a rename where both are on one filesystem; else (a fleet's files dir on a shared mount) a copy
 * to a temporary file beside the target, flushed, then renamed over it. Two machines placing the
 * same file at once each rename a complete file: readers never see a torn one.
 */
export async function placeFileAtomic(made: string, file: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    await fs.promises.rename(made, file);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.promises.copyFile(made, temporary);
    const handle = await fs.promises.open(temporary, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temporary, file);
    await fs.promises.rm(made, { force: true });
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Moves a folder of finished files (made in the data dir's scratch folder) to `dir`, which must not
 * exist yet, whole or not at all: a rename on one filesystem; else (a fleet's files dir on a shared
 * mount) its `files` copied into a temporary folder beside `dir`, each flushed, then the folder
 * renamed. A reader that finds `dir` finds every file in it.
 */
export async function placeFolderAtomic(made: string, dir: string, files: readonly string[]): Promise<void> {
  await fs.promises.mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
  try {
    await fs.promises.rename(made, dir);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  const temporary = `${dir}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await fs.promises.mkdir(temporary, { mode: 0o700 });
    for (const name of files) {
      const copy = path.join(temporary, name);
      await fs.promises.copyFile(path.join(made, name), copy);
      const handle = await fs.promises.open(copy, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    await fs.promises.rename(temporary, dir);
  } catch (error) {
    await fs.promises.rm(temporary, { recursive: true, force: true });
    throw error;
  }
  await fs.promises.rm(made, { recursive: true, force: true });
}

export function writeFileAtomic(file: string, data: Buffer | string, settings?: Settings): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = fs.openSync(temporary, 'w', 0o600);
    try {
      fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      failIfDiskFullFault(settings, temporary);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
