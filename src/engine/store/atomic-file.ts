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
