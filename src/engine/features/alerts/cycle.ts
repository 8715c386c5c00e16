/**
 * The evaluation cycle. An enabled alert is *due* when it has not been evaluated at the world's
 * current time with its current settings (it was created or edited since, or the world moved).
 * Every due alert keeps the triggers of its type (computed once per cycle for the whole world)
 * that pass its filters and records them:
 * - a trigger (channel, type, key) the alert already recorded is not new again;
 * - a breakout is not new again until 7 days of world time after it last triggered the alert;
 * - everything else is new: the alert's `new_channels` becomes the number of distinct channels
 *   with a new trigger in this evaluation (what `outlier-status` reports until the next one).
 * A cycle over an unmoved world with no edited alerts does nothing, so running it often (serve's
 * schedule) costs little and never resets what the last real evaluation found.
 *
 * Each alert's write is one IMMEDIATE transaction that re-checks the alert first, so two
 * processes running cycles at once record each trigger once.
 */
import type { AlertFilters, AlertType } from '../../../core/schemas/alerts.js';
import type { EngineContext } from '../../context.js';
import { ALERT_RULES, TriggerCache, type AlertContentType, type Trigger } from './alert-types.js';
import { matchesFilters } from './filters.js';
import { alertStatements, worldTime, type AlertRow } from './store.js';

const DAY_MS = 86_400_000;

export type CycleReason = 'schedule' | 'command' | 'advance';

export interface CycleReport {
  /** Null when no alert was due. */
  cycle_id: number | null;
  world_time: string;
  alerts_evaluated: number;
  /** Distinct channels new to some alert, summed over alerts. */
  new_channels: number;
  duration_ms: number;
}

export async function runAlertCycle(engine: EngineContext, reason: CycleReason): Promise<CycleReport> {
  const started = performance.now();
  const [platform, index] = await Promise.all([engine.platform(), engine.index()]);
  const statements = alertStatements(engine.db);
  const now = platform.nowMs();
  const due = statements.due.all(now);
  if (due.length === 0) return { cycle_id: null, world_time: worldTime(now), alerts_evaluated: 0, new_channels: 0, duration_ms: Math.round(performance.now() - started) };

  const cycleId = Number(statements.startCycle.run(reason, engine.clock.now(), now).lastInsertRowid);
  const cache = new TriggerCache(index, now);
  cache.prepare(due.map((alert) => ({ type: alert.alert_type as AlertType, contentType: alert.content_type as AlertContentType })));
  let evaluated = 0;
  let newChannels = 0;
  for (const alert of due) {
    const filters = JSON.parse(alert.filters) as AlertFilters;
    const triggers = cache
      .triggers(alert.alert_type as AlertType, alert.content_type as AlertContentType)
      .filter((trigger) => matchesFilters(trigger.channel, filters, now, trigger.texts));
    const fresh = record(engine, alert, triggers, cycleId, now);
    if (fresh === null) continue;
    evaluated += 1;
    newChannels += fresh;
  }
  statements.finishCycle.run(engine.clock.now(), evaluated, newChannels, cycleId);
  return { cycle_id: cycleId, world_time: worldTime(now), alerts_evaluated: evaluated, new_channels: newChannels, duration_ms: Math.round(performance.now() - started) };
}

/** Records one alert's triggers; the number of channels new to it, or null when it was no longer due. */
function record(engine: EngineContext, seen: AlertRow, triggers: Trigger[], cycleId: number, now: number): number | null {
  const { db, clock } = engine;
  const statements = alertStatements(db);
  const write = db.transaction(() => {
    const alert = statements.byId.get(seen.id);
    // Deleted, disabled or edited meanwhile (it stays due), or evaluated by another process.
    if (!alert || alert.enabled !== 1 || alert.updated_at !== seen.updated_at) return null;
    if (alert.last_world_ms === now && alert.eval_updated_at === alert.updated_at) return null;
    const wall = clock.now();
    const fresh = new Set<string>();
    for (const trigger of triggers) {
      const channelId = trigger.channel.channel_id;
      if (trigger.type === 'breakout') {
        const last = statements.lastTriggerOfType.get(alert.id, channelId, 'breakout');
        if (last !== null && last !== undefined && last > now - ALERT_RULES.breakout.quietDays * DAY_MS) continue;
      }
      statements.insertHit.run(
        alert.user_id, channelId, trigger.type, trigger.key, trigger.channel.handle, trigger.channel.title,
        trigger.reason, JSON.stringify(trigger.figures), now, cycleId, wall,
      );
      const hitId = statements.hitId.get(alert.user_id, channelId, trigger.type, trigger.key)!;
      if (statements.link.run(alert.id, hitId, cycleId, wall).changes === 0) continue;
      statements.touchHit.run(cycleId, wall, hitId);
      fresh.add(channelId);
    }
    statements.markEvaluated.run(wall, now, cycleId, fresh.size, alert.id);
    return fresh.size;
  });
  return write.immediate();
}
