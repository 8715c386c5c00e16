import { ServiceError } from './errors.js';
import { ExitCode } from './exit-codes.js';
import { clipEchoes } from './echo-text.js';

/** A failure on the client side, with the exit code it ends the process with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
    readonly code = 'cli_error',
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string, hint?: string) => new CliError(message, ExitCode.usage, hint, 'usage');
export const cancelled = (message = 'Cancelled.', hint?: string) => new CliError(message, ExitCode.cancelled, hint, 'cancelled');
export const timedOut = (message: string, hint?: string) => new CliError(message, ExitCode.timedOut, hint, 'timed_out');
export const jobFailed = (message: string) => new CliError(message, ExitCode.failure, undefined, 'job_failed');

/** The one JSON line a failure writes to stderr in --json mode: `{"error": {status, code, message, hint?}}`. */
export function jsonErrorLine(error: unknown, extra: Record<string, unknown> = {}): string {
  const known = error instanceof ServiceError || error instanceof CliError;
  const body: Record<string, unknown> = {
    status: error instanceof ServiceError ? error.status : null,
    code: known ? error.code : 'internal',
    message: clipEchoes((error as Error)?.message ?? String(error)),
    ...extra,
  };
  if (known && error.hint) body.hint = clipEchoes(error.hint);
  return JSON.stringify({ error: body });
}

const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'it is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EEXIST: 'it already exists',
  ENAMETOOLONG: 'the name is too long',
};

const SYSTEM_ACTIONS: Record<string, string> = {
  open: 'open', read: 'read', mkdir: 'create the directory', scandir: 'list', write: 'write', rename: 'move', unlink: 'remove',
  stat: 'read', lstat: 'read', access: 'use', copyfile: 'copy', chmod: 'change',
};

/**
 * A file-system error as a sentence about the path the user gave, instead of Node's
 * "EISDIR: illegal operation on a directory, read". Undefined for anything else.
 */
export function describeSystemError(error: unknown): CliError | undefined {
  const { code, syscall, path } = (error ?? {}) as NodeJS.ErrnoException;
  if (!code || !(code in SYSTEM_REASONS)) return undefined;
  const action = SYSTEM_ACTIONS[syscall ?? ''] ?? 'use';
  const target = path === undefined ? 'a file' : path === '' ? 'an empty path' : `"${path}"`;
  // A path the user typed that does not fit is their input to fix; a full disk or a locked file is not.
  const exitCode = ['ENOENT', 'EISDIR', 'ENOTDIR', 'ENAMETOOLONG', 'EEXIST'].includes(code) ? ExitCode.usage : ExitCode.failure;
  return new CliError(`Cannot ${action} ${target}: ${SYSTEM_REASONS[code]}.`, exitCode, undefined, code === 'ENOENT' ? 'no_such_file' : 'file_error');
}
