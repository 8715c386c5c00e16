import { ServiceError } from '../core/errors.js';
import { ExitCode } from '../core/exit-codes.js';

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
    message: (error as Error)?.message ?? String(error),
    ...extra,
  };
  if (known && error.hint) body.hint = error.hint;
  return JSON.stringify({ error: body });
}
