import fs from 'node:fs';
import path from 'node:path';
import { ExitCode } from '../core/exit-codes.js';
import { CliError } from '../core/client-errors.js';

/** Errors that mean the data dir itself is unusable, not that something inside the engine broke. */
const DATA_DIR_CODES = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'EEXIST', 'ENOSPC', 'SQLITE_CANTOPEN', 'SQLITE_NOTADB', 'SQLITE_READONLY']);

const unusable = (dataDir: string, reason: string) =>
  new CliError(
    `Cannot use the data dir ${dataDir}: ${reason}.`,
    ExitCode.failure,
    'Pass --data-dir <dir> or set TUBEKIT_DATA_DIR to a directory you can write to.',
    'data_dir_unusable',
  );

/**
 * Creates the data dir one level at a time. (Node's recursive mkdir never returns on some
 * file systems, e.g. under /proc, where a plain mkdir answers at once.)
 */
function createDataDir(dataDir: string): void {
  const missing: string[] = [];
  let at = path.resolve(dataDir);
  while (!fs.existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  if (!fs.statSync(at).isDirectory()) throw unusable(dataDir, `${at} is not a directory`);
  for (const dir of missing) fs.mkdirSync(dir, { mode: 0o700 });
}

/** Opens the embedded engine on `dataDir`; a data dir it cannot use is named, with how to pick another. */
export async function openAtDataDir<T>(dataDir: string, open: () => T | Promise<T>): Promise<T> {
  try {
    createDataDir(dataDir);
    return await open();
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (!code || !DATA_DIR_CODES.has(code)) throw error;
    throw unusable(dataDir, (error as Error).message);
  }
}
