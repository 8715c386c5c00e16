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
 * One cycle runs at a time across every process sharing the store (a fleet on one PostgreSQL, or
 * processes on one SQLite file): its alert_cycles row, unfinished, is the lease (claimCycle), so
 * two `serve` processes whose schedules fire together evaluate the alerts once. Each alert's write
 * is one transaction that re-checks the alert first, so even a cycle started after a lease ran out
 * records each trigger once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AlertFilters, AlertType } from '../../../core/schemas/alerts.js';
import type { EngineContext } from '../../context.js';
import { ALERT_RULES, TriggerCache, type AlertContentType, type Trigger } from './alert-types.js';
import { matchesFilters } from './filters.js';
import { alertSql, worldTime, type AlertRow } from './store.js';
import { isoTime } from '../../clock.js';
import { recordEvents, type NewEvent } from '../events/outbox.js';

const DAY_MS = 86_400_000;
/** One cycle at a time across the fleet: taken while deciding whether to start one. */
const CYCLE_LOCK = 'alert-cycle';
/** A cycle unfinished for this long is taken to have died with its process: another may start. */
const CYCLE_LEASE_MS = 10 * 60_000;
const BUSY_POLL_MS = 100;

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
  const now = platform.nowMs();
  const claimed = await claimCycle(engine, reason, now);
  const report = (cycleId: number | null, evaluated: number, newChannels: number): CycleReport => ({
    cycle_id: cycleId,
    world_time: worldTime(now),
    alerts_evaluated: evaluated,
    new_channels: newChannels,
    duration_ms: Math.round(performance.now() - started),
  });
  if (!claimed) return report(null, 0, 0);

  const { cycleId, due } = claimed;
  let evaluated = 0;
  let newChannels = 0;
  try {
    const cache = new TriggerCache(index, now);
    await cache.prepare(due.map((alert) => ({ type: alert.alert_type as AlertType, contentType: alert.content_type as AlertContentType })));
    for (const alert of due) {
      const filters = JSON.parse(alert.filters) as AlertFilters;
      const triggers = (await cache.triggers(alert.alert_type as AlertType, alert.content_type as AlertContentType)).filter((trigger) => matchesFilters(trigger.channel, filters, now, trigger.texts));
      const fresh = await record(engine, alert, triggers, cycleId, now);
      if (fresh === null) continue;
      evaluated += 1;
      newChannels += fresh;
    }
  } finally {
    // Finished even when it failed: the fleet's next cycle need not wait for the lease to run out.
    await alertSql.finishCycle(engine.store, engine.clock.now(), evaluated, newChannels, cycleId);
  }
  return report(cycleId, evaluated, newChannels);
}

/**
 * Starts the fleet's one cycle: under the cycle lock, when no other process is running one (its
 * unfinished row younger than the lease) and some alert is due, a cycle row is written — the lease
 * — and the due alerts are handed to this process. A scheduled cycle finding another running
 * leaves the work to it; any other waits for it to finish, then finds what is still due.
 */
async function claimCycle(engine: EngineContext, reason: CycleReason, worldMs: number): Promise<{ cycleId: number; due: AlertRow[] } | null> {
  for (;;) {
    const step = await engine.store.transaction(async (tx) => {
      await tx.lock(CYCLE_LOCK);
      const wall = engine.clock.now();
      if (await alertSql.running(tx, wall - CYCLE_LEASE_MS)) return 'busy' as const;
      const due = await alertSql.due(tx, worldMs);
      if (due.length === 0) return null;
      return { cycleId: await alertSql.startCycle(tx, reason, wall, worldMs), due };
    });
    if (step !== 'busy') return step;
    if (reason === 'schedule') return null;
    await sleep(BUSY_POLL_MS);
  }
}

/** Records one alert's triggers; the number of channels new to it, or null when it was no longer due. */
async function record(engine: EngineContext, seen: AlertRow, triggers: Trigger[], cycleId: number, now: number): Promise<number | null> {
  const { store, clock } = engine;
  return store.transaction(async (tx) => {
    const alert = await alertSql.byId(tx, seen.id);
    // Deleted, disabled or edited meanwhile (it stays due), or evaluated by another process.
    if (!alert || alert.enabled !== 1 || alert.updated_at !== seen.updated_at) return null;
    if (alert.last_world_ms === now && alert.eval_updated_at === alert.updated_at) return null;
    const wall = clock.now();
    const fresh = new Set<string>();
    const events: NewEvent[] = [];
    for (const trigger of triggers) {
      const channelId = trigger.channel.channel_id;
      if (trigger.type === 'breakout') {
        const last = await alertSql.lastTriggerOfType(tx, alert.id, channelId, 'breakout');
        if (last !== null && last > now - ALERT_RULES.breakout.quietDays * DAY_MS) continue;
      }
      await alertSql.insertHit(tx, [
        alert.user_id, channelId, trigger.type, trigger.key, trigger.channel.handle, trigger.channel.title,
        trigger.reason, JSON.stringify(trigger.figures), now, cycleId, wall,
      ]);
      const hitId = await alertSql.hitId(tx, alert.user_id, channelId, trigger.type, trigger.key);
      if ((await alertSql.link(tx, alert.id, hitId, cycleId, wall)).changes === 0) continue;
      await alertSql.touchHit(tx, cycleId, wall, hitId);
      if (!fresh.has(channelId)) events.push(triggeredEvent(alert, trigger, wall, now));
      fresh.add(channelId);
    }
    await alertSql.markEvaluated(tx, wall, now, cycleId, fresh.size, alert.id);
    // In the transaction that recorded them: an alert.triggered event exists exactly when its trigger does.
    await recordEvents(tx, events);
    return fresh.size;
  });
}

/** The alert.triggered event of a channel new to the alert: its body is the triggered feed's row. */
function triggeredEvent(alert: AlertRow, trigger: Trigger, wall: number, worldMs: number): NewEvent {
  return {
    userId: alert.user_id,
    type: 'alert.triggered',
    alertId: alert.id,
    at: wall,
    data: {
      channel_id: trigger.channel.channel_id,
      handle: trigger.channel.handle,
      title: trigger.channel.title,
      alert_type: trigger.type,
      reason: trigger.reason,
      figures: trigger.figures,
      triggered_at: isoTime(wall),
      world_time: worldTime(worldMs),
      new: true,
      alerts: [{ alert_id: alert.id, name: alert.name }],
    },
  };
}
