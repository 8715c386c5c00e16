/**
 * A full disk, recognised wherever it is met — `ENOSPC`/`EDQUOT` from a file write, `SQLITE_FULL`
 * from the database — and simulated on demand (`tubekit engine faults set disk-full`), so the 507
 * answer and the clean-up behind it can be tried without filling a disk.
 */
import { hasFault } from '../faults.js';
import type { Settings } from './settings.js';

export const DISK_FULL_FAULT = 'disk-full';

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

export function isDiskFull(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (FULL_CODES.has((current as NodeJS.ErrnoException).code ?? '')) return true;
  }
  return false;
}

/** The error a write meets on a full disk, as Node raises it. */
export function noSpaceError(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`), { code: 'ENOSPC', errno: -28, syscall: 'write', path: file });
}

/**
 * Fails as a full disk would when the `disk-full` fault is set: called where a file's bytes have
 * been written to its temporary name, so the clean-up a real full disk needs is what runs.
 */
export function failIfDiskFullFault(settings: Settings | undefined, file: string): void {
  if (settings && hasFault(settings, DISK_FULL_FAULT)) throw noSpaceError(file);
}
