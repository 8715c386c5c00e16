/**
 * The managed-network caps, counted in the database (rate_events) so they hold across processes:
 * a lookup answered from a stored verdict (and a network list) counts against the Starter daily
 * cap (429 upgrade_required); a live check against the hourly cap of every plan (429 rate_limited).
 * Callers take a slot inside the transaction that acts on it (`tx`), so a refused request counts
 * nothing; on a fleet's store the caps hold across every server (RateLimiter's bucket lock).
 */
import type { RequestContext } from '../../context.js';
import { planDisplayName } from '../../limits/plans.js';
import type { Transaction } from '../../store/store.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export async function takeLookup(request: RequestContext, tx?: Transaction): Promise<void> {
  const cap = request.limits.cmsLookupsPerDay;
  if (cap === null) return;
  const plan = planDisplayName[request.user.plan];
  await request.engine.rates.take(request.user.userId, 'cms-lookup', cap, DAY_MS, `${cap} managed-network lookups a day`, {
    code: 'upgrade_required',
    message: `Daily limit reached: the ${plan} plan includes ${cap} managed-network lookups a day.`,
    hint: 'Professional and Ultimate have no daily cap: upgrade in your subscription settings.',
  }, tx);
}

export async function takeLiveCheck(request: RequestContext, tx: Transaction): Promise<void> {
  const cap = request.limits.cmsLiveChecksPerHour;
  const plan = planDisplayName[request.user.plan];
  await request.engine.rates.take(request.user.userId, 'cms-live', cap, HOUR_MS, `${cap} live checks an hour`, {
    code: 'rate_limited',
    message: `Hourly limit reached: the ${plan} plan includes ${cap} managed-network live checks an hour.`,
    hint: 'Stored verdicts are still answered: ask without refresh=1 for a channel already checked.',
  }, tx);
}
