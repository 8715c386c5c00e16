import { ServiceError } from './errors.js';

/** Stable exit codes, documented in the README and in `tubekit --help`. */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  cancelled: 3,
  auth: 4,
  forbidden: 5,
  notFound: 6,
  conflict: 7,
  rateLimited: 8,
  unavailable: 9,
  timedOut: 10,
  flipped: 11,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const exitCodeDescriptions: ReadonlyArray<[ExitCode, string]> = [
  [ExitCode.ok, 'success'],
  [ExitCode.failure, 'failure, including a job that ended failed'],
  [ExitCode.usage, 'usage error or invalid input (client-side or HTTP 400)'],
  [ExitCode.cancelled, 'cancelled (Ctrl-C, or a declined confirmation)'],
  [ExitCode.auth, 'authentication failed (HTTP 401)'],
  [ExitCode.forbidden, 'plan or limit does not allow it (HTTP 403)'],
  [ExitCode.notFound, 'not found (HTTP 404)'],
  [ExitCode.conflict, 'conflict (HTTP 409)'],
  [ExitCode.rateLimited, 'rate limited (HTTP 429)'],
  [ExitCode.unavailable, 'service or upstream error (HTTP 5xx), or the service is unreachable'],
  [ExitCode.timedOut, 'timed out waiting'],
  [ExitCode.flipped, 'the ad-monetization verdict flipped (monetized --exit-on-flip)'],
];

export function exitCodeForStatus(status: number): ExitCode {
  switch (status) {
    case 400:
    case 413:
    case 422:
      return ExitCode.usage;
    case 401:
      return ExitCode.auth;
    case 403:
      return ExitCode.forbidden;
    case 404:
      return ExitCode.notFound;
    case 409:
      return ExitCode.conflict;
    case 429:
      return ExitCode.rateLimited;
    default:
      return status >= 500 || status === 0 ? ExitCode.unavailable : ExitCode.failure;
  }
}

export function exitCodeForError(error: unknown): ExitCode {
  if (error instanceof ServiceError) return exitCodeForStatus(error.status);
  if (error && typeof error === 'object' && 'exitCode' in error && typeof error.exitCode === 'number') {
    return error.exitCode as ExitCode;
  }
  return ExitCode.failure;
}
