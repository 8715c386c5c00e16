/** Listing a user's deliveries with their attempts, and sending one again. */
import { notFound } from '../../../core/errors.js';
import type { z } from 'zod';
import type { delivery as deliverySchema, EventType } from '../../../core/schemas/events.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import type { Executor } from '../../store/store.js';
import { ownEndpoint, refuseDisabled } from './endpoints.js';

type Delivery = z.infer<typeof deliverySchema>;

interface DeliveryRow {
  id: number;
  endpoint_id: number;
  event_id: string;
  event_type: EventType;
  state: Delivery['state'];
  next_attempt_at: number;
  delivered_at: number | null;
  created_at: number;
}

const SELECT_DELIVERY = `SELECT d.id, d.endpoint_id, v.id AS event_id, v.type AS event_type, d.state, d.next_attempt_at, d.delivered_at, d.created_at
  FROM webhook_deliveries d JOIN events v ON v.seq = d.event_seq`;

async function toDelivery(on: Executor, row: DeliveryRow): Promise<Delivery> {
  const attempts = await on.all<{ attempt: number; at: number; status: number | null; duration_ms: number; error: string | null }>(
    'SELECT attempt, at, status, duration_ms, error FROM webhook_attempts WHERE delivery_id = ? ORDER BY attempt',
    [row.id],
  );
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    state: row.state,
    attempts: attempts.map((attempt) => ({ ...attempt, at: isoTime(attempt.at) })),
    next_attempt_at: row.state === 'pending' ? isoTime(row.next_attempt_at) : null,
    delivered_at: row.delivered_at === null ? null : isoTime(row.delivered_at),
    created_at: isoTime(row.created_at),
  };
}

export async function listDeliveries(request: RequestContext, query: { endpoint_id?: number; failed: boolean; limit: number }): Promise<Delivery[]> {
  const { store } = request.engine;
  if (query.endpoint_id !== undefined) await ownEndpoint(request, query.endpoint_id);
  const where = ['d.user_id = ?'];
  const params: number[] = [request.user.userId];
  if (query.endpoint_id !== undefined) {
    where.push('d.endpoint_id = ?');
    params.push(query.endpoint_id);
  }
  // Failed: gave up, or failing now (its last attempt failed and it waits for the next).
  if (query.failed) where.push("(d.state = 'failed' OR (d.state = 'pending' AND d.attempts > 0))");
  const rows = await store.all<DeliveryRow>(`${SELECT_DELIVERY} WHERE ${where.join(' AND ')} ORDER BY d.id DESC LIMIT ?`, [...params, query.limit]);
  return Promise.all(rows.map((row) => toDelivery(store, row)));
}

/** Makes the delivery due now (same event, so the same webhook-id), whatever its state. */
export async function redeliver(request: RequestContext, id: number): Promise<Delivery> {
  const { store, clock } = request.engine;
  await store.transaction(async (tx) => {
    const row = await tx.get<{ endpoint_id: number }>('SELECT endpoint_id FROM webhook_deliveries WHERE id = ? AND user_id = ?', [id, request.user.userId]);
    if (!row) throw notFound(`Delivery ${id} not found. List yours with \`tubekit webhooks deliveries\`.`);
    refuseDisabled((await ownEndpoint(request, row.endpoint_id, tx)).enabled, row.endpoint_id);
    await tx.run("UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ?, delivered_at = NULL WHERE id = ?", [clock.now(), id]);
  });
  return toDelivery(store, (await store.get<DeliveryRow>(`${SELECT_DELIVERY} WHERE d.id = ?`, [id]))!);
}
