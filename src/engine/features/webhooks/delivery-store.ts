/**
 * The deliveries' SQL (portable between the two stores). A delivery is claimed under a lease, so
 * on a fleet each attempt is made by one machine; a machine that dies mid-attempt leaves the
 * lease to run out, and the delivery is tried again with the same webhook-id (at-least-once).
 * Per endpoint only the oldest pending delivery (by event) is ever claimed: events reach an
 * endpoint in the order they happened, a failing one holding back the later ones.
 */
import type { Executor, Transaction } from '../../store/store.js';

/** One claim at a time across every process sharing the store (an advisory lock on Postgres). */
const CLAIM_LOCK = 'webhook-deliveries';

export interface ClaimedDelivery {
  id: number;
  endpoint_id: number;
  user_id: number;
  event_seq: number;
  attempts: number;
  url: string;
  secret: string;
  event_id: string;
  event_type: string;
  occurred_at: number;
  data: string;
}

const HEADS = `SELECT d.id, d.user_id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
  WHERE d.state = 'pending' AND e.enabled = 1
    AND d.event_seq = (SELECT MIN(o.event_seq) FROM webhook_deliveries o WHERE o.endpoint_id = d.endpoint_id AND o.state = 'pending')
    AND d.next_attempt_at <= ? AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ?)
  ORDER BY d.next_attempt_at, d.event_seq LIMIT ?`;

/** Whether some delivery may be due (a cheap read before a claim's write transaction). */
export async function anyDue(on: Executor, now: number): Promise<boolean> {
  return (await on.get(`SELECT 1 AS due FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE d.state = 'pending' AND e.enabled = 1 AND d.next_attempt_at <= ? AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ?) LIMIT 1`,
    [now, now])) !== undefined;
}

/** Claims up to `limit` due deliveries for `owner`, keeping each user under `perUser` in flight. */
export async function claimDeliveries(store: { transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> }, owner: string, now: number, leaseMs: number, limit: number, perUser: number): Promise<ClaimedDelivery[]> {
  return store.transaction(async (tx) => {
    await tx.lock(CLAIM_LOCK);
    const heads = await tx.all<{ id: number; user_id: number }>(HEADS, [now, now, limit * 4]);
    const inFlight = new Map<number, number>();
    for (const row of await tx.all<{ user_id: number; n: number }>(
      "SELECT user_id, COUNT(*) AS n FROM webhook_deliveries WHERE state = 'pending' AND lease_expires_at > ? GROUP BY user_id",
      [now],
    )) inFlight.set(row.user_id, row.n);
    const chosen: number[] = [];
    for (const head of heads) {
      if (chosen.length >= limit) break;
      const used = inFlight.get(head.user_id) ?? 0;
      if (used >= perUser) continue;
      inFlight.set(head.user_id, used + 1);
      chosen.push(head.id);
    }
    const claimed: ClaimedDelivery[] = [];
    for (const id of chosen) {
      await tx.run('UPDATE webhook_deliveries SET lease_owner = ?, lease_expires_at = ? WHERE id = ?', [owner, now + leaseMs, id]);
      claimed.push(
        (await tx.get<ClaimedDelivery>(
          `SELECT d.id, d.endpoint_id, d.user_id, d.event_seq, d.attempts, e.url, e.secret, v.id AS event_id, v.type AS event_type, v.occurred_at, v.data
           FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN events v ON v.seq = d.event_seq WHERE d.id = ?`,
          [id],
        ))!,
      );
    }
    return claimed;
  });
}

export interface AttemptResult {
  at: number;
  status: number | null;
  durationMs: number;
  error: string | null;
  delivered: boolean;
}

/**
 * Records an attempt of a delivery this owner still holds: delivered, due again after `retryInMs`,
 * or (null) failed for good, which disables its endpoint. False when the lease was lost meanwhile.
 */
export async function finishAttempt(
  store: { transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> },
  delivery: ClaimedDelivery,
  owner: string,
  result: AttemptResult,
  retryInMs: number | null,
): Promise<boolean> {
  return store.transaction(async (tx) => {
    const held = await tx.get<{ attempts: number }>("SELECT attempts FROM webhook_deliveries WHERE id = ? AND lease_owner = ? AND state = 'pending'", [delivery.id, owner]);
    if (!held) return false;
    const attempt = held.attempts + 1;
    await tx.run('INSERT INTO webhook_attempts (delivery_id, attempt, at, status, duration_ms, error) VALUES (?, ?, ?, ?, ?, ?)', [
      delivery.id, attempt, result.at, result.status, result.durationMs, result.error,
    ]);
    const state = result.delivered ? 'delivered' : retryInMs === null ? 'failed' : 'pending';
    await tx.run(
      `UPDATE webhook_deliveries SET state = ?, attempts = ?, next_attempt_at = ?, lease_owner = NULL, lease_expires_at = NULL,
         last_status = ?, last_error = ?, last_duration_ms = ?, last_attempt_at = ?, delivered_at = ? WHERE id = ?`,
      [state, attempt, result.at + (retryInMs ?? 0), result.status, result.error, result.durationMs, result.at, result.delivered ? result.at : null, delivery.id],
    );
    if (state === 'failed') {
      await tx.run('UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ?', [
        `disabled after delivery ${delivery.id} failed for its whole retry schedule (${attempt} attempts; last: ${result.error ?? `HTTP ${result.status}`})`,
        result.at,
        delivery.endpoint_id,
      ]);
    }
    return true;
  });
}

/** Gives a claim back untouched (the process is stopping before the attempt began). */
export async function releaseDelivery(on: Executor, id: number, owner: string): Promise<void> {
  await on.run('UPDATE webhook_deliveries SET lease_owner = NULL, lease_expires_at = NULL WHERE id = ? AND lease_owner = ?', [id, owner]);
}
