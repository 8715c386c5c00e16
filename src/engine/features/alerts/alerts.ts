/** Alert CRUD: the plan cap, canonical filters, and 404 for another user's alert. */
import { notFound } from '../../../core/errors.js';
import type { Alert, AlertFilters } from '../../../core/schemas/alerts.js';
import type { RequestContext } from '../../context.js';
import type { Executor } from '../../store/store.js';
import { enforceCap } from '../access.js';
import { normalizeFilters } from './filters.js';
import { alertsLock, alertSql, toAlert, type AlertRow } from './store.js';

async function ownAlert(request: RequestContext, id: number, on: Executor = request.engine.store): Promise<AlertRow> {
  const row = await alertSql.own(on, id, request.user.userId);
  if (!row) throw notFound(`Alert ${id} not found. List your alerts with \`tubekit alerts list\`.`);
  return row;
}

export async function listAlerts(request: RequestContext): Promise<Alert[]> {
  return (await alertSql.listOwn(request.engine.store, request.user.userId)).map(toAlert);
}

/** The cap check and the insert in one transaction holding the user's alerts lock: the cap holds across machines. */
export async function createAlert(request: RequestContext, input: { name: string; alert_type: string; content_type: string; filters: AlertFilters }): Promise<Alert> {
  const { store, clock } = request.engine;
  const filters = normalizeFilters(await request.engine.platform(), input.filters);
  const id = await store.transaction(async (tx) => {
    await tx.lock(alertsLock(request.user.userId));
    enforceCap(request.limits.alerts, await alertSql.countOwn(tx, request.user.userId), 'You have reached the alert limit');
    return alertSql.insert(tx, request.user.userId, input.name, input.alert_type, input.content_type, JSON.stringify(filters), clock.now());
  });
  return toAlert((await alertSql.byId(store, id))!);
}

/** Changes any of name, filters (replaced as a whole) and enabled; an edit makes the alert due again. */
export async function updateAlert(request: RequestContext, input: { id: number; name?: string; filters?: AlertFilters; enabled?: boolean }): Promise<Alert> {
  const { store, clock } = request.engine;
  const filters = input.filters === undefined ? undefined : normalizeFilters(await request.engine.platform(), input.filters);
  await store.transaction(async (tx) => {
    await tx.lock(alertsLock(request.user.userId));
    const row = await ownAlert(request, input.id, tx);
    await alertSql.update(
      tx,
      input.name ?? row.name,
      filters === undefined ? row.filters : JSON.stringify(filters),
      input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0,
      Math.max(clock.now(), row.updated_at + 1),
      row.id,
    );
  });
  return toAlert((await alertSql.byId(store, input.id))!);
}

/** Deletes the alert and its triggered history (triggers no other alert of the user shares). */
export async function deleteAlert(request: RequestContext, id: number): Promise<{ id: number; removed_triggers: number }> {
  const removed = await request.engine.store.transaction(async (tx) => {
    await tx.lock(alertsLock(request.user.userId));
    await ownAlert(request, id, tx);
    const links = await alertSql.linksOf(tx, id);
    await alertSql.removeLinks(tx, id);
    await alertSql.remove(tx, id);
    await alertSql.removeOrphanHits(tx, request.user.userId);
    return links;
  });
  return { id, removed_triggers: removed };
}

export async function requireOwnAlert(request: RequestContext, id: number | undefined, field: string): Promise<void> {
  if (id === undefined) return;
  if (!(await alertSql.own(request.engine.store, id, request.user.userId))) {
    throw notFound(`Alert ${id} (${field}) not found. List your alerts with \`tubekit alerts list\`.`);
  }
}
