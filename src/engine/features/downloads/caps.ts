/**
 * The two download caps' 429s. Both say how long to wait ("Try again in N s", Retry-After) and
 * link to the subscription settings in their hint.
 */
import { tooManyRequests } from '../../../core/errors.js';
import type { RequestContext } from '../../context.js';
import { planDisplayName } from '../../limits/plans.js';
import { HOUR_MS } from './hourly-count.js';
import type { SlotRow } from './slots.js';
import { subscriptionSettingsUrl } from './subscription-page.js';

/** When no running download's end can be foreseen, this long. */
const UNKNOWN_WAIT_MS = 5_000;

/**
 * The hourly cap counts downloads answered within the hour plus those in progress (they count
 * when they answer): the wait is until enough of the answered ones leave the hour.
 */
export function hourlyCapReached(request: RequestContext, cap: number, recent: number[], inProgress: number) {
  const plan = planDisplayName[request.user.plan];
  const blocking = recent[recent.length + inProgress - cap];
  const waitMs = blocking === undefined ? HOUR_MS : blocking + HOUR_MS - request.engine.clock.now();
  return tooManyRequests(
    `Download limit reached: the ${plan} plan allows ${cap} downloads an hour, cached ones included${inProgress ? ` (${inProgress} in progress count too)` : ''}.`,
    waitMs / 1000,
    'rate_limited',
    `Upgrade for more downloads in your subscription settings: ${subscriptionSettingsUrl(request)}`,
  );
}

/** Over the parallel cap: refused at once, never queued; the wait is until the first running one should end. */
export function parallelCapReached(request: RequestContext, cap: number, held: SlotRow[]) {
  const plan = planDisplayName[request.user.plan];
  const now = request.engine.clock.now();
  const soonest = held.length > 0 ? Math.min(...held.map((slot) => slot.expected_done_at)) : now;
  const waitMs = soonest > now ? soonest - now : UNKNOWN_WAIT_MS;
  return tooManyRequests(
    `Too many downloads at once: the ${plan} plan allows ${cap} in parallel and ${held.length} ${held.length === 1 ? 'is' : 'are'} in progress; this one was not queued.`,
    waitMs / 1000,
    'rate_limited',
    `Wait for one to finish, or raise the cap in your subscription settings: ${subscriptionSettingsUrl(request)}`,
  );
}
