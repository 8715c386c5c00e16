import { ExitCode } from '../core/exit-codes.js';
import { CliError } from './errors.js';

/** Errors that mean the data dir itself is unusable, not that something inside the engine broke. */
const DATA_DIR_CODES = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'EEXIST', 'ENOSPC', 'SQLITE_CANTOPEN', 'SQLITE_NOTADB', 'SQLITE_READONLY']);

/** Opens the embedded engine on `dataDir`; a data dir it cannot use is named, with how to pick another. */
export function openAtDataDir<T>(dataDir: string, open: () => T): T {
  try {
    return open();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code || !DATA_DIR_CODES.has(code)) throw error;
    throw new CliError(
      `Cannot use the data dir ${dataDir}: ${(error as Error).message}.`,
      ExitCode.failure,
      'Pass --data-dir <dir> or set TUBEKIT_DATA_DIR to a directory you can write to.',
      'data_dir_unusable',
    );
  }
}
