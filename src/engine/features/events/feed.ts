/**
 * Reading a user's events in order after a cursor (the outbox's sequence number): `GET
 * /api/events`, `alerts watch` and `alerts triggered --since`. With `wait_seconds` the call waits
 * for the first event to arrive, re-reading the store (any process may write one).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { EventType, TubekitEvent } from '../../../core/schemas/events.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import type { Executor } from '../../store/store.js';

const POLL_MS = 200;

export interface EventQuery {
  after: string;
  types?: EventType[];
  alert_id?: number;
  limit: number;
  wait_seconds: number;
}

interface EventRow {
  seq: number;
  id: string;
  type: EventType;
  alert_id: number | null;
  occurred_at: number;
  data: string;
}

export const EVENT_COLUMNS = 'seq, id, type, alert_id, occurred_at, data';

export function toEvent(row: EventRow): TubekitEvent {
  return { id: row.id, type: row.type, timestamp: isoTime(row.occurred_at), cursor: String(row.seq), data: JSON.parse(row.data) } as TubekitEvent;
}

async function readAfter(on: Executor, userId: number, query: EventQuery, after: number): Promise<EventRow[]> {
  const where = ['user_id = ?', 'seq > ?'];
  const params: (string | number)[] = [userId, after];
  if (query.types && query.types.length > 0) {
    where.push(`type IN (${query.types.map(() => '?').join(', ')})`);
    params.push(...query.types);
  }
  // An alert's watch takes that alert's triggers and every event of the other types.
  if (query.alert_id !== undefined) {
    where.push("(type != 'alert.triggered' OR alert_id = ?)");
    params.push(query.alert_id);
  }
  return on.all<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ?`, [...params, query.limit]);
}

export async function listEvents(request: RequestContext, query: EventQuery): Promise<{ events: TubekitEvent[]; cursor: string }> {
  const after = Number(query.after);
  const deadline = Date.now() + query.wait_seconds * 1000;
  for (;;) {
    const rows = await readAfter(request.engine.store, request.user.userId, query, after);
    if (rows.length > 0 || Date.now() >= deadline || request.signal?.aborted) {
      return { events: rows.map(toEvent), cursor: rows.length > 0 ? String(rows.at(-1)!.seq) : query.after };
    }
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())), undefined, { signal: request.signal }).catch(() => undefined);
  }
}
