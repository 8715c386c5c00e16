/**
 * The live platform's failures, as the service's errors: the CLI maps their status to an exit code
 * (503 → 9, 429 → 8, 501 → 1) and the server answers them as they are.
 */
import { ServiceError } from '../../../core/errors.js';

const REACH_HINT =
  'Check the connection, or pass --proxy <url> (or set TUBEKIT_PROXY); `tubekit engine platform sample` works offline.';

/** The site could not be reached at all: offline, DNS, refused, reset, timed out. */
export function platformUnreachable(host: string, reason: string, cause?: unknown): ServiceError {
  return new ServiceError({
    status: 503,
    code: 'platform_unreachable',
    message: `the video platform could not be reached (${host}: ${reason})`,
    hint: REACH_HINT,
    cause,
  });
}

export type RefusalKind = 'rate_limited' | 'bot_check' | 'sign_in';

const REFUSAL_TEXT: Record<RefusalKind, string> = {
  rate_limited: 'is rate limiting this address (HTTP 429)',
  bot_check: 'asks to confirm this is not a bot',
  sign_in: 'asks to sign in',
};

/** The site answered but refused, still after the retries. */
export function platformRefused(host: string, kind: RefusalKind, attempts: number, retryAfterSeconds?: number): ServiceError {
  return new ServiceError({
    status: 429,
    code: 'platform_refused',
    message: `the video platform ${REFUSAL_TEXT[kind]} (${host}; ${attempts} attempts).`,
    hint:
      'Slow down (fewer requests a second: TUBEKIT_PLATFORM_RATE), use a proxy (--proxy or TUBEKIT_PROXY), ' +
      'or give a cookies file of a signed-in browser (TUBEKIT_COOKIES, Netscape format).',
    retryAfterSeconds,
  });
}

/** A page the parser does not understand: names the request and what was missing. */
export function platformPageNotUnderstood(request: string, missing: string, savedTo: string | null): ServiceError {
  const saved = savedTo ? ` The raw response is saved at ${savedTo}; attach it to a bug report.` : '';
  return new ServiceError({
    status: 502,
    code: 'platform_page_not_understood',
    message: `the video platform answered ${request} with a page tubekit does not understand: ${missing}.${saved}`,
    hint: 'The site may have changed its pages; upgrade tubekit, or use `tubekit engine platform sample` meanwhile.',
  });
}

/** The site answered with an error status that is neither a refusal nor "not found". */
export function platformHttpError(request: string, status: number): ServiceError {
  return new ServiceError({
    status: 502,
    code: 'upstream_error',
    message: `the video platform answered ${request} with HTTP ${status}.`,
    hint: 'Try again later; if it keeps failing, the site may have changed.',
  });
}

/** A read only the sample platform offers (simulation, networks, ad pages, …): 501 not_implemented_on_live. */
export { notImplementedOnLive as notOnLive } from '../../../core/errors.js';
