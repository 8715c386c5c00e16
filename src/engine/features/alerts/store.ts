/** The alerts tables' SQL (portable between the two stores), and the row ↔ API shape of an alert. */
import type { Alert, AlertFilters } from '../../../core/schemas/alerts.js';
import { isoTime } from '../../clock.js';
import type { Executor } from '../../store/store.js';

/** Named columns, not `*`: a prepared statement must keep its shape when a migration adds one. */
const ALERTS_COLUMNS = 'id, user_id, name, alert_type, content_type, filters, enabled, created_at, updated_at, last_evaluated_at, last_world_ms, last_cycle_id, last_new_channels, eval_updated_at';

export interface AlertRow {
  id: number;
  user_id: number;
  name: string;
  alert_type: string;
  content_type: string;
  filters: string;
  enabled: number;
  created_at: number;
  updated_at: number;
  last_evaluated_at: number | null;
  last_world_ms: number | null;
  last_cycle_id: number | null;
  last_new_channels: number;
  eval_updated_at: number | null;
}

/** A world time as the API shows it: ISO without milliseconds. */
export const worldTime = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export function toAlert(row: AlertRow): Alert {
  return {
    id: row.id,
    name: row.name,
    alert_type: row.alert_type,
    content_type: row.content_type,
    filters: JSON.parse(row.filters) as AlertFilters,
    enabled: row.enabled === 1,
    created_at: isoTime(row.created_at),
    updated_at: isoTime(row.updated_at),
    last_evaluated_at: row.last_evaluated_at === null ? null : isoTime(row.last_evaluated_at),
    last_world_time: row.last_world_ms === null ? null : worldTime(row.last_world_ms),
    new_channels: row.last_new_channels,
  };
}

/** Serialises a user's alert writes across processes and machines (the plan's alert cap). */
export const alertsLock = (userId: number) => `alerts:${userId}`;

export const alertSql = {
  listOwn: (on: Executor, userId: number) => on.all<AlertRow>(`SELECT ${ALERTS_COLUMNS} FROM alerts WHERE user_id = ? ORDER BY id`, [userId]),
  countOwn: async (on: Executor, userId: number) => (await on.get<{ n: number }>('SELECT COUNT(*) AS n FROM alerts WHERE user_id = ?', [userId]))!.n,
  own: (on: Executor, id: number, userId: number) => on.get<AlertRow>(`SELECT ${ALERTS_COLUMNS} FROM alerts WHERE id = ? AND user_id = ?`, [id, userId]),
  byId: (on: Executor, id: number) => on.get<AlertRow>(`SELECT ${ALERTS_COLUMNS} FROM alerts WHERE id = ?`, [id]),
  insert: async (on: Executor, userId: number, name: string, alertType: string, contentType: string, filters: string, now: number) =>
    (await on.get<{ id: number }>(
      'INSERT INTO alerts (user_id, name, alert_type, content_type, filters, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?) RETURNING id',
      [userId, name, alertType, contentType, filters, now, now],
    ))!.id,
  update: (on: Executor, name: string, filters: string, enabled: number, updatedAt: number, id: number) =>
    on.run('UPDATE alerts SET name = ?, filters = ?, enabled = ?, updated_at = ? WHERE id = ?', [name, filters, enabled, updatedAt, id]),
  remove: (on: Executor, id: number) => on.run('DELETE FROM alerts WHERE id = ?', [id]),
  linksOf: async (on: Executor, id: number) => (await on.get<{ n: number }>('SELECT COUNT(*) AS n FROM alert_hit_alerts WHERE alert_id = ?', [id]))!.n,
  removeLinks: (on: Executor, id: number) => on.run('DELETE FROM alert_hit_alerts WHERE alert_id = ?', [id]),
  removeOrphanHits: (on: Executor, userId: number) =>
    on.run('DELETE FROM alert_hits WHERE user_id = ? AND NOT EXISTS (SELECT 1 FROM alert_hit_alerts l WHERE l.hit_id = alert_hits.id)', [userId]),
  // Evaluation.
  due: (on: Executor, worldMs: number) =>
    on.all<AlertRow>(
      `SELECT ${ALERTS_COLUMNS} FROM alerts WHERE enabled = 1
         AND (last_world_ms IS NULL OR last_world_ms != ? OR eval_updated_at IS NULL OR eval_updated_at != updated_at)
       ORDER BY id`,
      [worldMs],
    ),
  /** The cycle some process is running (started since `since`, not finished), if any. */
  running: (on: Executor, since: number) =>
    on.get<{ id: number; started_at: number }>('SELECT id, started_at FROM alert_cycles WHERE finished_at IS NULL AND started_at > ? ORDER BY id DESC LIMIT 1', [since]),
  startCycle: async (on: Executor, reason: string, startedAt: number, worldMs: number) =>
    (await on.get<{ id: number }>('INSERT INTO alert_cycles (reason, started_at, world_ms) VALUES (?, ?, ?) RETURNING id', [reason, startedAt, worldMs]))!.id,
  finishCycle: (on: Executor, finishedAt: number, evaluated: number, newChannels: number, id: number) =>
    on.run('UPDATE alert_cycles SET finished_at = ?, alerts_evaluated = ?, new_channels = ? WHERE id = ?', [finishedAt, evaluated, newChannels, id]),
  insertHit: (on: Executor, values: [number, string, string, string, string | null, string, string, string, number, number, number]) =>
    on.run(
      `INSERT INTO alert_hits (user_id, channel_id, alert_type, trigger_key, handle, title, reason, figures, world_ms, last_cycle_id, last_triggered_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, channel_id, alert_type, trigger_key) DO NOTHING`,
      values,
    ),
  hitId: async (on: Executor, userId: number, channelId: string, alertType: string, key: string) =>
    (await on.get<{ id: number }>('SELECT id FROM alert_hits WHERE user_id = ? AND channel_id = ? AND alert_type = ? AND trigger_key = ?', [userId, channelId, alertType, key]))!.id,
  link: (on: Executor, alertId: number, hitId: number, cycleId: number, at: number) =>
    on.run('INSERT INTO alert_hit_alerts (alert_id, hit_id, cycle_id, triggered_at) VALUES (?, ?, ?, ?) ON CONFLICT (alert_id, hit_id) DO NOTHING', [alertId, hitId, cycleId, at]),
  touchHit: (on: Executor, cycleId: number, at: number, hitId: number) =>
    on.run('UPDATE alert_hits SET last_cycle_id = ?, last_triggered_at = ? WHERE id = ?', [cycleId, at, hitId]),
  lastTriggerOfType: async (on: Executor, alertId: number, channelId: string, alertType: string) =>
    (await on.get<{ last: number | null }>(
      `SELECT MAX(h.world_ms) AS last FROM alert_hit_alerts l JOIN alert_hits h ON h.id = l.hit_id
       WHERE l.alert_id = ? AND h.channel_id = ? AND h.alert_type = ?`,
      [alertId, channelId, alertType],
    ))?.last ?? null,
  markEvaluated: (on: Executor, at: number, worldMs: number, cycleId: number, newChannels: number, id: number) =>
    on.run('UPDATE alerts SET last_evaluated_at = ?, last_world_ms = ?, last_cycle_id = ?, last_new_channels = ?, eval_updated_at = updated_at WHERE id = ?', [
      at,
      worldMs,
      cycleId,
      newChannels,
      id,
    ]),
};
