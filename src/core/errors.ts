/**
 * The error family shared by every layer. A ServiceError is what the API answers with
 * (status + machine code + message + optional hint); the CLI maps it to an exit code.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'plan_required'
  | 'scope_required'
  | 'limit_reached'
  | 'not_found'
  | 'channel_terminated'
  | 'conflict'
  | 'rate_limited'
  | 'upgrade_required'
  | 'upstream_error'
  | 'unsupported_url'
  | 'video_unavailable'
  | 'unavailable'
  | 'request_timeout'
  | 'misdirected_request'
  | 'insufficient_storage'
  | 'not_implemented'
  | 'internal';

export interface ServiceErrorInit {
  status: number;
  code: ErrorCode | string;
  message: string;
  hint?: string;
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint?: string;
  readonly retryAfterSeconds?: number;

  constructor(init: ServiceErrorInit) {
    // A client's mistake is an answer, not a fault to debug: no stack trace, which is most of what
    // an error costs to make (a server refusing bad keys makes one per request).
    const stackTraceLimit = Error.stackTraceLimit;
    if (init.status < 500) Error.stackTraceLimit = 0;
    try {
      super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'ServiceError';
    this.status = init.status;
    this.code = init.code;
    this.hint = init.hint;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** The wire body: `{success: false, error, code, hint?}`. */
  toBody(): ErrorBody {
    const body: ErrorBody = { success: false, error: this.message, code: this.code };
    if (this.hint) body.hint = this.hint;
    return body;
  }
}

export interface ErrorBody {
  success: false;
  error: string;
  code: string;
  hint?: string;
}

export const badRequest = (message: string, hint?: string) =>
  new ServiceError({ status: 400, code: 'invalid_request', message, hint });

export const unauthorized = (message = 'Authentication failed: the API key is missing, unknown or revoked.') =>
  new ServiceError({
    status: 401,
    code: 'unauthorized',
    message,
    hint: 'Send the key as "Authorization: Bearer <key>"; create one with `tubekit engine keys create`.',
  });

export const forbidden = (message: string, code: ErrorCode = 'plan_required', hint?: string) =>
  new ServiceError({ status: 403, code, message, hint });

export const notFound = (message: string) => new ServiceError({ status: 404, code: 'not_found', message });

export const conflict = (message: string) => new ServiceError({ status: 409, code: 'conflict', message });

/** 429 whose message ends with "Try again in N s." — clients of the hosted service parse that text. */
export const tooManyRequests = (
  message: string,
  retryAfterSeconds: number,
  code: ErrorCode = 'rate_limited',
  hint?: string,
) => {
  const wait = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ServiceError({
    status: 429,
    code,
    message: `${message} Try again in ${wait}s.`,
    retryAfterSeconds: wait,
    hint,
  });
};

export const upstreamError = (message: string) =>
  new ServiceError({ status: 502, code: 'upstream_error', message });

/** A write failed because the disk is full: nothing was saved, and reads still work. */
export const insufficientStorage = (cause?: unknown) =>
  new ServiceError({
    status: 507,
    code: 'insufficient_storage',
    message: 'Insufficient storage: the disk holding the service\'s data is full, so nothing was saved.',
    hint: 'Free some space on that disk (old downloads under cdn/downloads can go) and try again; reading still works.',
    cause,
  });

export const notImplemented = (what: string) =>
  new ServiceError({
    status: 501,
    code: 'not_implemented',
    message: `${what} is not available in this engine yet.`,
    hint: 'Use the hosted service with --base-url, or upgrade tubekit.',
  });

/** 501 for what the data dir's live platform cannot do yet: names the platform and what to do instead. */
export const notImplementedOnLive = (what: string) =>
  new ServiceError({
    status: 501,
    code: 'not_implemented_on_live',
    message: `${what} is not available on the live platform yet.`,
    hint: 'Use a data dir on the sample platform (another --data-dir), or the hosted service with --base-url.',
  });

/** Parses the "Try again in N s" text the hosted service puts in 429 bodies. */
export function parseRetryAfterText(text: string): number | undefined {
  const match = /try again in (\d+)\s*s/i.exec(text);
  return match ? Number(match[1]) : undefined;
}

export const fileTooLarge = (field: string, maxBytes: number) =>
  badRequest(
    `Invalid request: ${field}: the file is larger than ${Math.round(maxBytes / (1024 * 1024))} MB.`,
    'Trim or compress the sample and try again.',
  );
