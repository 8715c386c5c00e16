import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes a file so that readers see either nothing or the whole of it: a temporary file in
 * the same directory, flushed, then renamed over the target (rename is atomic on one filesystem).
 */
export function writeFileAtomic(file: string, data: Buffer | string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = fs.openSync(temporary, 'w', 0o600);
    try {
      fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
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
