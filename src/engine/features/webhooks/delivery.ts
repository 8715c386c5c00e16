/**
 * The delivery loop of `serve` and `tubekit engine worker`: claims due deliveries, sends each once
 * (send.ts) and records the attempt; a failure is due again after the retry schedule's next wait.
 * `deliverDue` is one pass, which tests call with a manual clock instead of waiting.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EngineContext } from '../../context.js';
import { anyDue, claimDeliveries, finishAttempt, type ClaimedDelivery } from './delivery-store.js';
import { nextWait } from './retry-schedule.js';
import { sendWebhook } from './send.js';
import { signedHeaders } from './signature.js';
import { checkedTarget, checkedUrl } from './target-address.js';

/** Deliveries one pass claims at most. */
const PASS_LIMIT = 16;
/** How often an idle loop looks for due deliveries. */
const IDLE_POLL_MS = 500;
/** The lease outlives an attempt by this much, so a slow attempt keeps its claim. */
const LEASE_MARGIN_MS = 5_000;

export interface PassReport {
  attempted: number;
  delivered: number;
}

/** The body every attempt of an event sends (the same bytes each time). */
export function deliveryBody(delivery: Pick<ClaimedDelivery, 'event_id' | 'event_type' | 'occurred_at' | 'data' | 'event_seq'>): string {
  return JSON.stringify({
    id: delivery.event_id,
    type: delivery.event_type,
    timestamp: new Date(delivery.occurred_at).toISOString(),
    cursor: String(delivery.event_seq),
    data: JSON.parse(delivery.data) as unknown,
  });
}

/** Claims and sends what is due now; resolves when every attempt of the pass is recorded. */
export async function deliverDue(engine: EngineContext, owner = `deliver-${process.pid}-${randomUUID()}`): Promise<PassReport> {
  const settings = engine.webhooks;
  // A read first: an idle loop never takes the store's write lock (SQLite's one lock for every process).
  if (!(await anyDue(engine.store, engine.clock.now()))) return { attempted: 0, delivered: 0 };
  const claimed = await claimDeliveries(engine.store, owner, engine.clock.now(), settings.timeoutMs + LEASE_MARGIN_MS, PASS_LIMIT, settings.maxInFlightPerUser);
  const outcomes = await Promise.all(claimed.map((delivery) => attempt(engine, delivery, owner)));
  return { attempted: claimed.length, delivered: outcomes.filter(Boolean).length };
}

async function attempt(engine: EngineContext, delivery: ClaimedDelivery, owner: string): Promise<boolean> {
  const settings = engine.webhooks;
  const at = engine.clock.now();
  const started = performance.now();
  const body = deliveryBody(delivery);
  let status: number | null = null;
  let error: string | null = null;
  try {
    // The rules again at each attempt: a name may resolve elsewhere now than when it was saved.
    const url = checkedUrl(delivery.url, settings);
    const address = await checkedTarget(url, settings);
    const headers = signedHeaders(delivery.secret, delivery.event_id, Math.floor(at / 1000), body);
    const sent = await sendWebhook({ url, address, headers, body, timeoutMs: settings.timeoutMs, maxResponseBytes: settings.maxResponseBytes });
    status = sent.status;
    error = sent.error;
  } catch (refused) {
    error = refused instanceof Error ? refused.message : String(refused);
  }
  const delivered = error === null && status !== null && status >= 200 && status < 300;
  const retryIn = delivered ? 0 : nextWait(settings.retrySchedule, delivery.attempts + 1);
  await finishAttempt(engine.store, delivery, owner, { at, status, durationMs: Math.round(performance.now() - started), error, delivered }, retryIn);
  return delivered;
}

/** Runs passes until stopped; a failing pass (the store away for a moment) is logged and retried. */
export function startDeliveryLoop(engine: EngineContext, log: (line: string) => void = () => undefined): () => Promise<void> {
  const stopping = new AbortController();
  const owner = `deliver-${process.pid}-${randomUUID()}`;
  const running = (async () => {
    while (!stopping.signal.aborted) {
      let report: PassReport = { attempted: 0, delivered: 0 };
      try {
        report = await deliverDue(engine, owner);
      } catch (error) {
        log(`webhook deliveries: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (report.attempted === 0) await sleep(IDLE_POLL_MS, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  })();
  return async () => {
    stopping.abort();
    await running;
  };
}
