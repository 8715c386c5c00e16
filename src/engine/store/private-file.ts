import fs from 'node:fs';

/** Owner read and write only: the data dir holds key digests, user data and job logs. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes sure `file` exists and only its owner can read it, whatever the umask, and tightens a
 * file an older version left readable by others. Files that do not exist yet are created empty.
 */
export function ensurePrivateFile(file: string): void {
  // Every command opens the database: one stat when all is well, more only when it is not.
  if (!tightenIfPresent(file)) fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
}

/** Narrows an existing file to owner-only; a file that is not there is left absent (false). */
export function tightenIfPresent(file: string): boolean {
  const stats = fs.statSync(file, { throwIfNoEntry: false });
  if (!stats) return false;
  if ((stats.mode & 0o777) !== PRIVATE_FILE_MODE) fs.chmodSync(file, PRIVATE_FILE_MODE);
  return true;
}
