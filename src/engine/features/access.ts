import { ServiceError, forbidden } from '../../core/errors.js';
import type { RequestContext } from '../context.js';
import { planDisplayName } from '../limits/plans.js';
import type { Scope } from '../identity/identity.js';

/** Text-to-speech and voice endpoints need Professional or Ultimate. */
export function requireVoicePlan(request: RequestContext): void {
  if (!request.limits.voices) {
    throw forbidden(
      `Voice and text-to-speech endpoints need the Professional or Ultimate plan; this key is on ${planDisplayName[request.user.plan]}.`,
      'plan_required',
      'Upgrade the plan in your subscription settings.',
    );
  }
}

/**
 * A key without the scope an endpoint needs gets 401: the spec's statuses for the one scoped
 * endpoint (download: 200, 400, 401, 429) have no 403, and the spec lists the scope under
 * Authentication — the credential itself is not good for this call.
 */
export function requireScope(request: RequestContext, scope: Scope): void {
  if (!request.user.scopes.includes(scope)) {
    throw new ServiceError({
      status: 401,
      code: 'scope_required',
      message: `Authentication failed for this endpoint: the key lacks the "${scope}" scope it needs.`,
      hint: `Use a key with the scope; on the embedded engine: tubekit engine keys create --scope ${scope}`,
    });
  }
}

/** Throws 403 when `used` has reached a plan cap (`null` = unlimited). */
export function enforceCap(cap: number | null, used: number, what: string): void {
  if (cap !== null && used >= cap) {
    throw forbidden(`${what} (${cap} on your plan).`, 'limit_reached', 'Delete some, or upgrade the plan.');
  }
}
