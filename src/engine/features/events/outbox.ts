/**
 * The outbox: every event is one row of `events`, written by the transaction that made it happen
 * (an alert cycle's record, a world advance, a read that found a channel gone), so a crash never
 * loses or invents one. The same transaction makes one delivery row per webhook endpoint of the
 * user that asked for the event; the delivery loop (webhooks/) sends them afterwards.
 */
import { randomUUID } from 'node:crypto';
import type { EventType } from '../../../core/schemas/events.js';
import type { Transaction } from '../../store/store.js';

/**
 * Taken before an event is written: on PostgreSQL two transactions could otherwise commit their
 * events out of sequence order, and a reader following the cursor would skip the later-committed
 * lower one. SQLite's single writer already orders them.
 */
const OUTBOX_LOCK = 'events-outbox';

export interface NewEvent {
  userId: number;
  type: EventType;
  /** The alert an alert.triggered event is of (for endpoints and watches of one alert). */
  alertId?: number;
  /** When it happened (wall-clock ms). */
  at: number;
  data: Record<string, unknown>;
}

/** A new event's id: stable for ever, the `webhook-id` of each of its deliveries. */
export const newEventId = () => `evt_${randomUUID().replace(/-/g, '')}`;

interface EndpointMatch {
  id: number;
  events: string;
  alert_id: number | null;
}

/** Writes the events, and their deliveries to the endpoints asking for them, inside `tx`. */
export async function recordEvents(tx: Transaction, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await tx.lock(OUTBOX_LOCK);
  const endpoints = new Map<number, EndpointMatch[]>();
  for (const event of events) {
    const row = await tx.get<{ seq: number }>(
      'INSERT INTO events (id, user_id, type, alert_id, occurred_at, data) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
      [newEventId(), event.userId, event.type, event.alertId ?? null, event.at, JSON.stringify(event.data)],
    );
    if (!endpoints.has(event.userId)) {
      endpoints.set(event.userId, await tx.all<EndpointMatch>('SELECT id, events, alert_id FROM webhook_endpoints WHERE user_id = ? AND enabled = 1', [event.userId]));
    }
    for (const endpoint of endpoints.get(event.userId)!) {
      if (!endpoint.events.split(',').includes(event.type)) continue;
      // An endpoint of one alert takes that alert's alert.triggered events (and every event of the other types).
      if (event.type === 'alert.triggered' && endpoint.alert_id !== null && endpoint.alert_id !== event.alertId) continue;
      await tx.run('INSERT INTO webhook_deliveries (endpoint_id, user_id, event_seq, state, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
        endpoint.id,
        event.userId,
        row!.seq,
        'pending',
        event.at,
        event.at,
      ]);
    }
  }
}
