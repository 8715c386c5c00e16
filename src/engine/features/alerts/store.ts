/** The alerts tables: prepared once per database, and the row ↔ API shape of an alert. */
import type { Alert, AlertFilters } from '../../../core/schemas/alerts.js';
import { isoTime } from '../../clock.js';
import { preparedFor } from '../../store/prepared.js';

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


export const alertStatements = preparedFor((db) => ({
  listOwn: db.prepare<[number], AlertRow>('SELECT * FROM alerts WHERE user_id = ? ORDER BY id'),
  countOwn: db.prepare<[number], number>('SELECT COUNT(*) FROM alerts WHERE user_id = ?').pluck(),
  own: db.prepare<[number, number], AlertRow>('SELECT * FROM alerts WHERE id = ? AND user_id = ?'),
  byId: db.prepare<[number], AlertRow>('SELECT * FROM alerts WHERE id = ?'),
  insert: db.prepare<[number, string, string, string, string, number, number]>(
    'INSERT INTO alerts (user_id, name, alert_type, content_type, filters, enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)',
  ),
  update: db.prepare<[string, string, number, number, number]>('UPDATE alerts SET name = ?, filters = ?, enabled = ?, updated_at = ? WHERE id = ?'),
  remove: db.prepare<[number]>('DELETE FROM alerts WHERE id = ?'),
  linksOf: db.prepare<[number], number>('SELECT COUNT(*) FROM alert_hit_alerts WHERE alert_id = ?').pluck(),
  removeLinks: db.prepare<[number]>('DELETE FROM alert_hit_alerts WHERE alert_id = ?'),
  removeOrphanHits: db.prepare<[number]>(
    'DELETE FROM alert_hits WHERE user_id = ? AND NOT EXISTS (SELECT 1 FROM alert_hit_alerts l WHERE l.hit_id = alert_hits.id)',
  ),
  // Evaluation.
  due: db.prepare<[number], AlertRow>(
    `SELECT * FROM alerts WHERE enabled = 1
       AND (last_world_ms IS NULL OR last_world_ms != ? OR eval_updated_at IS NULL OR eval_updated_at != updated_at)
     ORDER BY id`,
  ),
  startCycle: db.prepare<[string, number, number]>('INSERT INTO alert_cycles (reason, started_at, world_ms) VALUES (?, ?, ?)'),
  finishCycle: db.prepare<[number, number, number, number]>('UPDATE alert_cycles SET finished_at = ?, alerts_evaluated = ?, new_channels = ? WHERE id = ?'),
  insertHit: db.prepare<[number, string, string, string, string | null, string, string, string, number, number, number]>(
    `INSERT INTO alert_hits (user_id, channel_id, alert_type, trigger_key, handle, title, reason, figures, world_ms, last_cycle_id, last_triggered_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, channel_id, alert_type, trigger_key) DO NOTHING`,
  ),
  hitId: db.prepare<[number, string, string, string], number>(
    'SELECT id FROM alert_hits WHERE user_id = ? AND channel_id = ? AND alert_type = ? AND trigger_key = ?',
  ).pluck(),
  link: db.prepare<[number, number, number, number]>('INSERT OR IGNORE INTO alert_hit_alerts (alert_id, hit_id, cycle_id, triggered_at) VALUES (?, ?, ?, ?)'),
  touchHit: db.prepare<[number, number, number]>('UPDATE alert_hits SET last_cycle_id = ?, last_triggered_at = ? WHERE id = ?'),
  lastTriggerOfType: db.prepare<[number, string, string], number>(
    `SELECT MAX(h.world_ms) FROM alert_hit_alerts l JOIN alert_hits h ON h.id = l.hit_id
     WHERE l.alert_id = ? AND h.channel_id = ? AND h.alert_type = ?`,
  ).pluck(),
  markEvaluated: db.prepare<[number, number, number, number, number]>(
    'UPDATE alerts SET last_evaluated_at = ?, last_world_ms = ?, last_cycle_id = ?, last_new_channels = ?, eval_updated_at = updated_at WHERE id = ?',
  ),
}));
