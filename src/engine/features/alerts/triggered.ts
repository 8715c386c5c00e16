/**
 * Reading what the cycles recorded: the triggered feed (all alerts merged, or one alert; by default
 * the channels each alert's last evaluation cycle recorded, with `history` all of them) and the
 * per-alert status. Status reads only the alerts table (each alert's latest evaluation carries its
 * new-channel count), so polling it stays cheap however long the triggered history grows.
 */
import type { TriggeredChannel } from '../../../core/schemas/alerts.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import { preparedFor } from '../../store/prepared.js';
import { requireOwnAlert } from './alerts.js';
import { worldTime } from './store.js';

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

const statements = preparedFor((db) => ({
  merged: db.prepare<[number, number, number], HitRow>('SELECT * FROM alert_hits WHERE user_id = ? ORDER BY last_cycle_id DESC, id DESC LIMIT ? OFFSET ?'),
  mergedCount: db.prepare<[number], number>('SELECT COUNT(*) FROM alert_hits WHERE user_id = ?').pluck(),
  mergedNew: db.prepare<[number, number, number], HitRow>(
    `SELECT * FROM alert_hits WHERE id IN (${NEW_HITS}) ORDER BY last_cycle_id DESC, id DESC LIMIT ? OFFSET ?`,
  ),
  mergedNewCount: db.prepare<[number], number>(`SELECT COUNT(DISTINCT hit_id) FROM (${NEW_HITS})`).pluck(),
  ofAlert: db.prepare<[number, number, number], HitRow>(
    `SELECT h.*, l.triggered_at AS link_at FROM alert_hit_alerts l JOIN alert_hits h ON h.id = l.hit_id
     WHERE l.alert_id = ? ORDER BY l.cycle_id DESC, l.hit_id DESC LIMIT ? OFFSET ?`,
  ),
  ofAlertCount: db.prepare<[number], number>('SELECT COUNT(*) FROM alert_hit_alerts WHERE alert_id = ?').pluck(),
  ofAlertNew: db.prepare<[number, number, number], HitRow>(
    `SELECT h.*, l.triggered_at AS link_at FROM alerts a JOIN alert_hit_alerts l ON l.alert_id = a.id AND l.cycle_id = a.last_cycle_id
     JOIN alert_hits h ON h.id = l.hit_id WHERE a.id = ? ORDER BY l.hit_id DESC LIMIT ? OFFSET ?`,
  ),
  ofAlertNewCount: db.prepare<[number], number>(
    'SELECT COUNT(*) FROM alerts a JOIN alert_hit_alerts l ON l.alert_id = a.id AND l.cycle_id = a.last_cycle_id WHERE a.id = ?',
  ).pluck(),
  links: db.prepare<[string], LinkRow>(
    `SELECT l.hit_id, l.alert_id, a.name, (l.cycle_id = a.last_cycle_id) AS is_new
     FROM alert_hit_alerts l JOIN alerts a ON a.id = l.alert_id
     WHERE l.hit_id IN (SELECT value FROM json_each(?)) ORDER BY l.alert_id`,
  ),
  status: db.prepare<[number], { id: number; name: string; alert_type: string; enabled: number; last_new_channels: number; last_evaluated_at: number | null; last_world_ms: number | null }>(
    'SELECT id, name, alert_type, enabled, last_new_channels, last_evaluated_at, last_world_ms FROM alerts WHERE user_id = ? ORDER BY id',
  ),
}));

export interface TriggeredQuery {
  alert_id?: number;
  page: number;
  per_page: number;
  history: boolean;
}

export function triggeredChannels(request: RequestContext, query: TriggeredQuery): { total: number; channels: TriggeredChannel[] } {
  const s = statements(request.engine.db);
  const user = request.user.userId;
  const offset = (query.page - 1) * query.per_page;
  let rows: HitRow[];
  let total: number;
  if (query.alert_id !== undefined) {
    requireOwnAlert(request, query.alert_id, 'alert_id');
    rows = (query.history ? s.ofAlert : s.ofAlertNew).all(query.alert_id, query.per_page, offset);
    total = (query.history ? s.ofAlertCount : s.ofAlertNewCount).get(query.alert_id)!;
  } else {
    rows = (query.history ? s.merged : s.mergedNew).all(user, query.per_page, offset);
    total = (query.history ? s.mergedCount : s.mergedNewCount).get(user)!;
  }
  const links = new Map<number, LinkRow[]>();
  for (const link of s.links.all(JSON.stringify(rows.map((row) => row.id)))) {
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
  const alerts = statements(request.engine.db)
    .status.all(request.user.userId)
    .map((row) => ({
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
