/**
 * A full disk, recognised wherever it is met — `ENOSPC`/`EDQUOT` from a file write, `SQLITE_FULL`
 * from the database — and simulated on demand (`tubekit engine faults set disk-full`), so the 507
 * answer and the clean-up behind it can be tried without filling a disk.
 */
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
