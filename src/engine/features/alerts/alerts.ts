/** Alert CRUD: the plan cap, canonical filters, and 404 for another user's alert. */
import { notFound } from '../../../core/errors.js';
import type { Alert, AlertFilters } from '../../../core/schemas/alerts.js';
import type { RequestContext } from '../../context.js';
import { enforceCap } from '../access.js';
import { normalizeFilters } from './filters.js';
import { alertStatements, toAlert, type AlertRow } from './store.js';

function ownAlert(request: RequestContext, id: number): AlertRow {
  const row = alertStatements(request.engine.db).own.get(id, request.user.userId);
  if (!row) throw notFound(`Alert ${id} not found. List your alerts with \`tubekit alerts list\`.`);
  return row;
}

export function listAlerts(request: RequestContext): Alert[] {
  return alertStatements(request.engine.db).listOwn.all(request.user.userId).map(toAlert);
}

export async function createAlert(request: RequestContext, input: { name: string; alert_type: string; content_type: string; filters: AlertFilters }): Promise<Alert> {
  const { db, clock } = request.engine;
  const statements = alertStatements(db);
  const filters = normalizeFilters(await request.engine.platform(), input.filters);
  const create = db.transaction(() => {
    enforceCap(request.limits.alerts, statements.countOwn.get(request.user.userId)!, 'You have reached the alert limit');
    const now = clock.now();
    return Number(statements.insert.run(request.user.userId, input.name, input.alert_type, input.content_type, JSON.stringify(filters), now, now).lastInsertRowid);
  });
  return toAlert(statements.byId.get(create.immediate())!);
}

/** Changes any of name, filters (replaced as a whole) and enabled; an edit makes the alert due again. */
export async function updateAlert(request: RequestContext, input: { id: number; name?: string; filters?: AlertFilters; enabled?: boolean }): Promise<Alert> {
  const { db, clock } = request.engine;
  const statements = alertStatements(db);
  const filters = input.filters === undefined ? undefined : normalizeFilters(await request.engine.platform(), input.filters);
  const update = db.transaction(() => {
    const row = ownAlert(request, input.id);
    statements.update.run(
      input.name ?? row.name,
      filters === undefined ? row.filters : JSON.stringify(filters),
      input.enabled === undefined ? row.enabled : input.enabled ? 1 : 0,
      Math.max(clock.now(), row.updated_at + 1),
      row.id,
    );
  });
  update.immediate();
  return toAlert(statements.byId.get(input.id)!);
}

/** Deletes the alert and its triggered history (triggers no other alert of the user shares). */
export function deleteAlert(request: RequestContext, id: number): { id: number; removed_triggers: number } {
  const { db } = request.engine;
  const statements = alertStatements(db);
  const remove = db.transaction(() => {
    ownAlert(request, id);
    const removed = statements.linksOf.get(id)!;
    statements.removeLinks.run(id);
    statements.remove.run(id);
    statements.removeOrphanHits.run(request.user.userId);
    return removed;
  });
  return { id, removed_triggers: remove.immediate() };
}

export function requireOwnAlert(request: RequestContext, id: number | undefined, field: string): void {
  if (id === undefined) return;
  if (!alertStatements(request.engine.db).own.get(id, request.user.userId)) {
    throw notFound(`Alert ${id} (${field}) not found. List your alerts with \`tubekit alerts list\`.`);
  }
}

