/**
 * The error body every failure answers with, as a schema, so the published contract states it
 * from the same source the type checker holds `ServiceError.toBody()` to.
 */
import * as z from 'zod';
import type { ErrorBody } from '../errors.js';

export const errorBody = z
  .object({
    success: z.literal(false),
    error: z.string().describe('What happened and how to fix it. A 429 ends with "Try again in N s."'),
    code: z
      .string()
      .describe(
        'Machine code: invalid_request, unauthorized, scope_required, plan_required, limit_reached, upgrade_required, ' +
          'not_found, conflict, rate_limited, unsupported_url, video_unavailable, subtitles_unavailable, upstream_error, unavailable, ' +
          'request_timeout, misdirected_request, insufficient_storage, not_implemented, internal.',
      ),
    hint: z.string().optional().describe('The next step, where one helps.'),
  })
  .strict();

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// The schema and the wire type must stay one shape: this fails to compile when they part.
true satisfies Same<ErrorBody, z.infer<typeof errorBody>>;
