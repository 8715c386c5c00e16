/**
 * One alert cycle at a time across every process sharing the store: an unfinished cycle row is the
 * running cycle's lease. A scheduled cycle finding one leaves the work to it; any other cycle waits
 * for it to finish; a lease older than ten minutes is taken to have died with its process. On
 * SQLite and on PostgreSQL alike (the second engine stands for another server of the fleet).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '../../../src/engine/engine.js';
import { openEngine } from '../../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../../src/engine/store/store-location.js';
import { createHarness, type StoreKind } from '../../support/engines.js';

const WORLD = { seed: 11, channels: 400, terminated: 0 };
const MINUTE = 60_000;

for (const store of ['sqlite', 'postgres'] as StoreKind[]) {
  describe(`alert cycles, one at a time [${store}]`, () => {
    let harness: Awaited<ReturnType<typeof createHarness>>;
    let engine: Engine;
    let other: Engine;
    let userId: number;

    beforeAll(async () => {
      harness = await createHarness('embedded', { world: WORLD, jobRunner: { mode: 'none' } }, store);
      engine = harness.harness.engine;
      const storeUrl = engine.storeUrl;
      other = await openEngine({ dataDir: engine.dataDir, jobRunner: { mode: 'none' }, store: storeUrl ? parseStoreLocation(storeUrl) : undefined });
      userId = (await engine.identity.createUserWithKey('ultimate', [])).user_id;
    });
    afterAll(async () => {
      await other?.close();
      await harness?.close();
    });

    /** Makes an alert due (new, never evaluated). */
    const newAlert = async () => {
      const now = Date.now();
      await engine.store.run("INSERT INTO alerts (user_id, name, alert_type, content_type, filters, enabled, created_at, updated_at) VALUES (?, 'A', 'new_channel', 'longform', '{}', 1, ?, ?)", [userId, now, now]);
    };
    /** A cycle another process started at `startedAt` and has not finished; its id. */
    const runningElsewhere = async (startedAt: number) =>
      (await engine.store.get<{ id: number }>("INSERT INTO alert_cycles (reason, started_at, world_ms) VALUES ('schedule', ?, 0) RETURNING id", [startedAt]))!.id;
    const cycleCount = async () => (await engine.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM alert_cycles'))!.n;

    it('leaves a scheduled cycle to the one another process is running, and runs once that lease has run out', async () => {
      await newAlert();
      const running = await runningElsewhere(Date.now() - MINUTE);
      expect(await engine.evaluateAlerts('schedule')).toMatchObject({ cycle_id: null, alerts_evaluated: 0 });
      await engine.store.run('UPDATE alert_cycles SET started_at = ? WHERE id = ?', [Date.now() - 11 * MINUTE, running]);
      const taken = await engine.evaluateAlerts('schedule');
      expect(taken.cycle_id).not.toBeNull();
      expect(taken.alerts_evaluated).toBeGreaterThan(0);
    });

    it('makes a cycle asked for meanwhile wait for the running one, then run what is still due', async () => {
      await newAlert();
      const running = await runningElsewhere(Date.now());
      const before = await cycleCount();
      let settled = false;
      const waiting = engine.evaluateAlerts('command').finally(() => (settled = true));
      await sleep(400);
      expect(settled).toBe(false);
      await engine.store.run('UPDATE alert_cycles SET finished_at = ? WHERE id = ?', [Date.now(), running]);
      const report = await waiting;
      expect(report.alerts_evaluated).toBe(1);
      expect(await cycleCount()).toBe(before + 1);
    });

    it('evaluates due alerts once when two engines run their scheduled cycles at the same moment', async () => {
      await newAlert();
      await newAlert();
      const before = await cycleCount();
      const reports = await Promise.all([engine.evaluateAlerts('schedule'), other.evaluateAlerts('schedule')]);
      expect(reports.map((report) => report.alerts_evaluated).sort()).toEqual([0, 2]);
      expect(reports.filter((report) => report.cycle_id !== null)).toHaveLength(1);
      expect(await cycleCount()).toBe(before + 1);
      const unfinished = await engine.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM alert_cycles WHERE finished_at IS NULL AND started_at > ?', [Date.now() - 10 * MINUTE]);
      expect(unfinished!.n).toBe(0);
    });
  });
}
