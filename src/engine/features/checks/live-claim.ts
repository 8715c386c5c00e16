/**
 * One managed-network live check per channel at a time, across requests and across processes
 * sharing the store (a fleet's servers too): the request that finds none running claims one (a row with a lease) and
 * runs it; a request arriving meanwhile joins it and waits for its outcome. A claim whose runner
 * gave up (released on abort) or died (lease run out) leaves nothing to wait for: the waiter then
 * decides again, and may run the check itself.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../clock.js';
import type { PageSignal } from '../../platform/page-signals.js';
import type { Executor } from '../../store/store.js';
import { checksSql, type ClaimRow } from './check-store.js';

/**
 * What a finished live check found: whether it stored a verdict (false: no verdict obtained); on
 * the live platform also the signals it read and — without a verdict — why, and what to do.
 */
export interface LiveOutcome {
  verdict: boolean;
  signals?: PageSignal[];
  note?: string;
  hint?: string;
}

const POLL_MS = 50;
/** Beyond the check's own planned duration, before another request may take the claim over. */
const LEASE_MARGIN_MS = 30_000;

export function isRunning(claim: ClaimRow | undefined, now: number): claim is ClaimRow {
  return claim !== undefined && claim.finished_at === null && claim.lease_expires_at > now;
}

/** Claims the channel's live check; call inside the transaction that decided to run it. */
export async function claimLiveCheck(on: Executor, channelId: string, now: number, plannedMs: number): Promise<string> {
  const token = randomUUID();
  await checksSql.putClaim(on, channelId, token, now, now + plannedMs + LEASE_MARGIN_MS);
  return token;
}

export async function finishLiveCheck(on: Executor, channelId: string, token: string, now: number, outcome: LiveOutcome): Promise<void> {
  await checksSql.finishClaim(on, now, JSON.stringify(outcome), channelId, token);
}

export async function releaseLiveCheck(on: Executor, channelId: string, token: string): Promise<void> {
  await checksSql.releaseClaim(on, channelId, token);
}

/** Waits for the claimed check to finish: its outcome, or null when nobody will finish it. */
export async function awaitLiveCheck(
  on: Executor,
  clock: Clock,
  channelId: string,
  token: string,
  signal?: AbortSignal,
): Promise<LiveOutcome | null> {
  for (;;) {
    const claim = await checksSql.claim(on, channelId);
    if (!claim || claim.token !== token) return null;
    if (claim.finished_at !== null) return JSON.parse(claim.outcome ?? '{"verdict":false}') as LiveOutcome;
    if (claim.lease_expires_at <= clock.now()) return null;
    await sleep(POLL_MS, undefined, { signal });
  }
}
