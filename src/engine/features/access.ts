import { forbidden } from '../../core/errors.js';
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

export function requireScope(request: RequestContext, scope: Scope): void {
  if (!request.user.scopes.includes(scope)) {
    throw forbidden(
      `This key lacks the "${scope}" scope this endpoint needs.`,
      'scope_required',
      `Create a key with the scope: tubekit engine keys create --scope ${scope}`,
    );
  }
}

/** Throws 403 when `used` has reached a plan cap (`null` = unlimited). */
export function enforceCap(cap: number | null, used: number, what: string): void {
  if (cap !== null && used >= cap) {
    throw forbidden(`${what} (${cap} on your plan).`, 'limit_reached', 'Delete some, or upgrade the plan.');
  }
}
