/**
 * Reading what the cycles recorded: the triggered feed (all alerts merged, or one alert; by default
 * the channels each alert's last evaluation cycle recorded, with `history` all of them) and the
 * per-alert status. Status reads only the alerts table (each alert's latest evaluation carries its
 * new-channel count), so polling it stays cheap however long the triggered history grows.
 */
import type { TriggeredChannel } from '../../../core/schemas/alerts.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import type { Executor, SqlValue } from '../../store/store.js';
import { requireOwnAlert } from './alerts.js';
import { worldTime } from './store.js';

/** Named columns, not `*`: a prepared statement must keep its shape when a migration adds one. */
const ALERT_HITS_COLUMNS = 'id, user_id, channel_id, alert_type, trigger_key, handle, title, reason, figures, world_ms, last_cycle_id, last_triggered_at';
const SELECT_HIT_COLUMNS = `SELECT ${ALERT_HITS_COLUMNS.split(', ').map((column) => `h.${column}`).join(', ')}`;

interface HitRow {
  id: number;
  channel_id: string;
  alert_type: string;
  handle: string | null;
  title: string;
  reason: string;
  figures: string;
  world_ms: number;
  last_triggered_at: number;
  link_at?: number;
}

interface LinkRow {
  hit_id: number;
  alert_id: number;
  name: string;
  is_new: number;
}

const NEW_HITS = `SELECT l.hit_id FROM alerts a JOIN alert_hit_alerts l ON l.alert_id = a.id AND l.cycle_id = a.last_cycle_id WHERE a.user_id = ?`;
const count = async (on: Executor, sql: string, params: SqlValue[]) => (await on.get<{ n: number }>(sql, params))!.n;

/** The feed's SQL, portable between the two stores. */
const feedSql = {
  merged: (on: Executor, userId: number, limit: number, offset: number) =>
    on.all<HitRow>(`SELECT ${ALERT_HITS_COLUMNS} FROM alert_hits WHERE user_id = ? ORDER BY last_cycle_id DESC, id DESC LIMIT ? OFFSET ?`, [userId, limit, offset]),
  mergedCount: (on: Executor, userId: number) => count(on, 'SELECT COUNT(*) AS n FROM alert_hits WHERE user_id = ?', [userId]),
  mergedNew: (on: Executor, userId: number, limit: number, offset: number) =>
    on.all<HitRow>(`SELECT ${ALERT_HITS_COLUMNS} FROM alert_hits WHERE id IN (${NEW_HITS}) ORDER BY last_cycle_id DESC, id DESC LIMIT ? OFFSET ?`, [userId, limit, offset]),
  mergedNewCount: (on: Executor, userId: number) => count(on, `SELECT COUNT(DISTINCT hit_id) AS n FROM (${NEW_HITS}) AS new_hits`, [userId]),
  ofAlert: (on: Executor, alertId: number, limit: number, offset: number) =>
    on.all<HitRow>(
      `${SELECT_HIT_COLUMNS}, l.triggered_at AS link_at FROM alert_hit_alerts l JOIN alert_hits h ON h.id = l.hit_id
       WHERE l.alert_id = ? ORDER BY l.cycle_id DESC, l.hit_id DESC LIMIT ? OFFSET ?`,
      [alertId, limit, offset],
    ),
  ofAlertCount: (on: Executor, alertId: number) => count(on, 'SELECT COUNT(*) AS n FROM alert_hit_alerts WHERE alert_id = ?', [alertId]),
  ofAlertNew: (on: Executor, alertId: number, limit: number, offset: number) =>
    on.all<HitRow>(
      `${SELECT_HIT_COLUMNS}, l.triggered_at AS link_at FROM alerts a JOIN alert_hit_alerts l ON l.alert_id = a.id AND l.cycle_id = a.last_cycle_id
       JOIN alert_hits h ON h.id = l.hit_id WHERE a.id = ? ORDER BY l.hit_id DESC LIMIT ? OFFSET ?`,
      [alertId, limit, offset],
    ),
  ofAlertNewCount: (on: Executor, alertId: number) =>
    count(on, 'SELECT COUNT(*) AS n FROM alerts a JOIN alert_hit_alerts l ON l.alert_id = a.id AND l.cycle_id = a.last_cycle_id WHERE a.id = ?', [alertId]),
  /** The alerts each hit came from (a page's hits: at most 50 placeholders). */
  links: (on: Executor, hitIds: number[]) =>
    hitIds.length === 0
      ? Promise.resolve([])
      : on.all<LinkRow>(
          `SELECT l.hit_id, l.alert_id, a.name, CASE WHEN l.cycle_id = a.last_cycle_id THEN 1 ELSE 0 END AS is_new
           FROM alert_hit_alerts l JOIN alerts a ON a.id = l.alert_id
           WHERE l.hit_id IN (${hitIds.map(() => '?').join(', ')}) ORDER BY l.alert_id`,
          hitIds,
        ),
  status: (on: Executor, userId: number) =>
    on.all<{ id: number; name: string; alert_type: string; enabled: number; last_new_channels: number; last_evaluated_at: number | null; last_world_ms: number | null }>(
      'SELECT id, name, alert_type, enabled, last_new_channels, last_evaluated_at, last_world_ms FROM alerts WHERE user_id = ? ORDER BY id',
      [userId],
    ),
};

export interface TriggeredQuery {
  alert_id?: number;
  page: number;
  per_page: number;
  history: boolean;
}

export async function triggeredChannels(request: RequestContext, query: TriggeredQuery): Promise<{ total: number; channels: TriggeredChannel[] }> {
  const { store } = request.engine;
  const user = request.user.userId;
  const offset = (query.page - 1) * query.per_page;
  let rows: HitRow[];
  let total: number;
  if (query.alert_id !== undefined) {
    await requireOwnAlert(request, query.alert_id, 'alert_id');
    rows = await (query.history ? feedSql.ofAlert : feedSql.ofAlertNew)(store, query.alert_id, query.per_page, offset);
    total = await (query.history ? feedSql.ofAlertCount : feedSql.ofAlertNewCount)(store, query.alert_id);
  } else {
    rows = await (query.history ? feedSql.merged : feedSql.mergedNew)(store, user, query.per_page, offset);
    total = await (query.history ? feedSql.mergedCount : feedSql.mergedNewCount)(store, user);
  }
  const links = new Map<number, LinkRow[]>();
  for (const link of await feedSql.links(store, rows.map((row) => row.id))) {
    if (query.alert_id !== undefined && link.alert_id !== query.alert_id) continue;
    links.set(link.hit_id, [...(links.get(link.hit_id) ?? []), link]);
  }
  const channels = rows.map((row): TriggeredChannel => {
    const from = links.get(row.id) ?? [];
    return {
      channel_id: row.channel_id,
      handle: row.handle,
      title: row.title,
      alert_type: row.alert_type,
      reason: row.reason,
      figures: JSON.parse(row.figures) as Record<string, unknown>,
      triggered_at: isoTime(row.link_at ?? row.last_triggered_at),
      world_time: worldTime(row.world_ms),
      new: from.some((link) => link.is_new === 1),
      alerts: from.map((link) => ({ alert_id: link.alert_id, name: link.name })),
    };
  });
  return { total, channels };
}

export async function outlierStatus(request: RequestContext) {
  const alerts = (await feedSql.status(request.engine.store, request.user.userId)).map((row) => ({
      alert_id: row.id,
      name: row.name,
      alert_type: row.alert_type,
      enabled: row.enabled === 1,
      new_channels: row.last_new_channels,
      last_evaluated_at: row.last_evaluated_at === null ? null : isoTime(row.last_evaluated_at),
      last_world_time: row.last_world_ms === null ? null : worldTime(row.last_world_ms),
    }));
  return {
    world_time: worldTime((await request.engine.platform()).nowMs()),
    new_channels: alerts.reduce((sum, alert) => sum + alert.new_channels, 0),
    alerts,
  };
}
