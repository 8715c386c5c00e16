/**
 * Webhook endpoint CRUD: the plan cap, the target rules (target-address.ts) checked before
 * anything is saved, the secret generated here and shown only in the answer that made it.
 */
import { conflict, notFound } from '../../../core/errors.js';
import type { EventType, WebhookEndpoint } from '../../../core/schemas/events.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import type { Executor } from '../../store/store.js';
import { enforceCap } from '../access.js';
import { requireOwnAlert } from '../alerts/alerts.js';
import { newSecret } from './signature.js';
import { checkedTarget, checkedUrl } from './target-address.js';

/** Named columns, never the secret: a read for the API cannot leak it. */
const ENDPOINT_COLUMNS = 'id, user_id, url, events, alert_id, enabled, disabled_reason, created_at, updated_at';

interface EndpointRow {
  id: number;
  user_id: number;
  url: string;
  events: string;
  alert_id: number | null;
  enabled: number;
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

const webhooksLock = (userId: number) => `webhooks:${userId}`;

const endpointSql = {
  own: (on: Executor, id: number, userId: number) => on.get<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ? AND user_id = ?`, [id, userId]),
  listOwn: (on: Executor, userId: number) => on.all<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE user_id = ? ORDER BY id`, [userId]),
  countOwn: async (on: Executor, userId: number) => (await on.get<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE user_id = ?', [userId]))!.n,
  pending: async (on: Executor, id: number) => (await on.get<{ n: number }>("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND state = 'pending'", [id]))!.n,
};

async function toEndpoint(on: Executor, row: EndpointRow): Promise<WebhookEndpoint> {
  return {
    id: row.id,
    url: row.url,
    events: row.events.split(',') as EventType[],
    alert_id: row.alert_id,
    enabled: row.enabled === 1,
    disabled_reason: row.disabled_reason,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    pending_deliveries: await endpointSql.pending(on, row.id),
  };
}

export async function ownEndpoint(request: RequestContext, id: number, on: Executor = request.engine.store): Promise<EndpointRow> {
  const row = await endpointSql.own(on, id, request.user.userId);
  if (!row) throw notFound(`Webhook endpoint ${id} not found. List yours with \`tubekit webhooks list\`.`);
  return row;
}

/** The URL as saved, once its form and every address of its host pass the rules. */
async function acceptedUrl(request: RequestContext, text: string): Promise<string> {
  const url = checkedUrl(text, request.engine.webhooks);
  await checkedTarget(url, request.engine.webhooks);
  return url.href;
}

const eventList = (events: readonly string[]) => [...new Set(events)].join(',');

export async function listEndpoints(request: RequestContext): Promise<WebhookEndpoint[]> {
  const { store } = request.engine;
  return Promise.all((await endpointSql.listOwn(store, request.user.userId)).map((row) => toEndpoint(store, row)));
}

export async function createEndpoint(request: RequestContext, input: { url: string; events: EventType[]; alert_id?: number }): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const { store, clock } = request.engine;
  const url = await acceptedUrl(request, input.url);
  await requireOwnAlert(request, input.alert_id, 'alert_id');
  const secret = newSecret();
  const id = await store.transaction(async (tx) => {
    await tx.lock(webhooksLock(request.user.userId));
    enforceCap(request.limits.webhookEndpoints, await endpointSql.countOwn(tx, request.user.userId), 'You have reached the webhook endpoint limit');
    const now = clock.now();
    return (await tx.get<{ id: number }>(
      'INSERT INTO webhook_endpoints (user_id, url, events, alert_id, secret, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?) RETURNING id',
      [request.user.userId, url, eventList(input.events), input.alert_id ?? null, secret, now, now],
    ))!.id;
  });
  return { endpoint: await toEndpoint(store, (await ownEndpoint(request, id))!), secret };
}

/** Changes url, events, alert_id or enabled; enabling a disabled endpoint sends its pending deliveries again. */
export async function updateEndpoint(request: RequestContext, input: { id: number; url?: string; events?: EventType[]; alert_id?: number | null; enabled?: boolean }): Promise<WebhookEndpoint> {
  const { store, clock } = request.engine;
  await ownEndpoint(request, input.id);
  const url = input.url === undefined ? undefined : await acceptedUrl(request, input.url);
  if (input.alert_id !== undefined && input.alert_id !== null) await requireOwnAlert(request, input.alert_id, 'alert_id');
  await store.transaction(async (tx) => {
    await tx.lock(webhooksLock(request.user.userId));
    const row = await ownEndpoint(request, input.id, tx);
    const enabled = input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0;
    const now = clock.now();
    await tx.run('UPDATE webhook_endpoints SET url = ?, events = ?, alert_id = ?, enabled = ?, disabled_reason = ?, updated_at = ? WHERE id = ?', [
      url ?? row.url,
      input.events === undefined ? row.events : eventList(input.events),
      input.alert_id === undefined ? row.alert_id : input.alert_id,
      enabled,
      enabled === 1 ? null : row.enabled === 0 ? row.disabled_reason : 'disabled by you',
      now,
      row.id,
    ]);
    // Back on: what waited (or gave up while it was failing) is tried again from now.
    if (enabled === 1 && row.enabled === 0) {
      await tx.run("UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = ? WHERE endpoint_id = ? AND state IN ('pending', 'failed')", [now, row.id]);
    }
  });
  return toEndpoint(store, (await ownEndpoint(request, input.id))!);
}

export async function deleteEndpoint(request: RequestContext, id: number): Promise<{ id: number }> {
  await request.engine.store.transaction(async (tx) => {
    await ownEndpoint(request, id, tx);
    await tx.run('DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ?)', [id]);
    await tx.run('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', [id]);
    await tx.run('DELETE FROM webhook_endpoints WHERE id = ?', [id]);
  });
  return { id };
}

/** A new secret; the old one stops signing at once. */
export async function rotateSecret(request: RequestContext, id: number): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const { store, clock } = request.engine;
  const secret = newSecret();
  await store.transaction(async (tx) => {
    await ownEndpoint(request, id, tx);
    await tx.run('UPDATE webhook_endpoints SET secret = ?, updated_at = ? WHERE id = ?', [secret, clock.now(), id]);
  });
  return { endpoint: await toEndpoint(store, await ownEndpoint(request, id)), secret };
}

export function refuseDisabled(enabled: number, id: number): void {
  if (enabled !== 1) throw conflict(`Webhook endpoint ${id} is disabled. Enable it first: \`tubekit webhooks update ${id} --enable\`.`);
}
