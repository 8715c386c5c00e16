/**
 * The moving world, alerts and collabs: the default world's first use and a 1-day advance; an
 * evaluation cycle over 100 alerts on the default world and on a 100,000-channel world;
 * outlier-status and the triggered feed at 100 alerts × 10,000 triggered rows each; collab
 * rankings (fastest-growing) at 100,000 channels, warm and on its 6-hourly recomputation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AlertFilters } from '../src/core/schemas/alerts.js';
import { Engine } from '../src/engine/engine.js';
import { LocalService } from '../src/engine/local-service.js';
import type { SampleWorld } from '../src/engine/platform/sample/index.js';
import { benchWorld } from './sample-world.js';
import { median, timeMedian, type BenchRow } from './table.js';

const DAY = 86_400_000;

interface Bench {
  engine: Engine;
  service: LocalService;
  world: SampleWorld;
  close(): void;
}

async function openBench(channels?: number): Promise<Bench> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-alerts-'));
  const engine = Engine.open({ dataDir });
  const world = await benchWorld(engine, channels === undefined ? undefined : { seed: 1, channels });
  const service = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
  return {
    engine,
    service,
    world,
    close() {
      engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A realistic mix of 100 alerts: every type and content type, with and without filters. */
async function createHundredAlerts(service: LocalService): Promise<void> {
  const types = ['outlier', 'new_channel', 'breakout'] as const;
  const filterSets: AlertFilters[] = [
    {},
    { min_subs: 1_000 },
    { min_subs: 10_000, max_subs: 5_000_000 },
    { languages: ['English'] },
    { languages: ['Spanish', 'Portuguese'], min_views: 100_000 },
    { categories: ['Gaming', 'Entertainment'] },
    { keywords: ['music', 'cooking'] },
    { min_age: 30, min_uploads: 10 },
  ];
  for (let i = 0; i < 100; i++) {
    await service.call('alerts.create', {
      name: `Alert ${i}`,
      alert_type: types[i % types.length],
      content_type: i % 2 === 0 ? 'longform' : 'shorts',
      filters: filterSets[i % filterSets.length]!,
    });
  }
}

/** Median cycle time over `runs` cycles, each after the world moved a day (so all 100 are due). */
async function cycleTimes(bench: Bench, runs: number): Promise<{ cycle: number; advance: number }> {
  const cycles: number[] = [];
  const advances: number[] = [];
  for (let run = 0; run < runs; run++) {
    let started = performance.now();
    bench.world.advance(DAY);
    advances.push(performance.now() - started);
    started = performance.now();
    const report = await bench.engine.evaluateAlerts();
    cycles.push(performance.now() - started);
    if (report.alerts_evaluated !== 100) throw new Error(`expected 100 alerts evaluated, got ${report.alerts_evaluated}`);
  }
  return { cycle: median(cycles), advance: median(advances) };
}

async function defaultWorldRows(): Promise<BenchRow[]> {
  const firstUse: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const bench = await openBench();
    void bench.world.channelCount();
    firstUse.push(performance.now() - started);
    bench.close();
  }
  const bench = await openBench();
  try {
    await createHundredAlerts(bench.service);
    await bench.engine.evaluateAlerts(); // warm up: the first cycle also catches up on the reference date
    const { cycle, advance } = await cycleTimes(bench, 5);
    const folders = await timeMedian(50, () => bench.service.call('folders.list', {}));
    return [
      { name: 'default world (3,000 channels): first use (engine open + world generated)', value: median(firstUse), unit: 'ms', budget: 'about 1 s' },
      { name: 'world advance 1d, default world', value: advance, unit: 'ms', budget: 'well under 1–2 s' },
      { name: 'alert cycle: 100 alerts, default world', value: cycle, unit: 'ms', baseline: { name: 'one folders.list call', value: folders } },
    ];
  } finally {
    bench.close();
  }
}

async function bigWorldRows(): Promise<BenchRow[]> {
  const bench = await openBench(100_000);
  try {
    await createHundredAlerts(bench.service);
    await bench.engine.evaluateAlerts();
    const { cycle, advance } = await cycleTimes(bench, 3);
    // Rankings: the 6-hourly recomputation, then warm queries of the snapshot.
    bench.world.advance(6 * 3_600_000);
    let started = performance.now();
    await bench.service.call('collabs.top', {});
    const refresh = performance.now() - started;
    const queries = [
      {},
      { sort: 'pct' as const },
      { metric: 'views' as const, period: 30 as const, min_partners: 2 },
      { language: 'English', active_days: 14, page: 3 },
    ];
    const warm: number[] = [];
    for (const query of queries) warm.push(await timeMedian(30, () => bench.service.call('collabs.top', query)));
    const folders = await timeMedian(50, () => bench.service.call('folders.list', {}));
    started = performance.now();
    bench.world.advance(DAY);
    const advanceDay = performance.now() - started;
    return [
      { name: 'world advance 1d, 100,000 channels', value: Math.min(advance, advanceDay), unit: 'ms' },
      { name: 'alert cycle: 100 alerts, 100,000 channels', value: cycle, unit: 'ms', baseline: { name: 'one folders.list call', value: folders } },
      { name: 'collabs fastest-growing, 100,000 channels (p50 of a query mix)', value: median(warm), unit: 'ms', baseline: { name: 'one folders.list call', value: folders } },
      { name: 'collabs growth recomputation (every 6 h of world time), 100,000 channels', value: refresh, unit: 'ms' },
    ];
  } finally {
    bench.close();
  }
}

/** 100 alerts with 10,000 triggered channels each, written straight into the tables. */
async function statusRows(): Promise<BenchRow[]> {
  const bench = await openBench(300);
  try {
    await createHundredAlerts(bench.service);
    const db = bench.engine.db;
    const userId = (db.prepare('SELECT user_id FROM alerts LIMIT 1').get() as { user_id: number }).user_id;
    const alertIds = (db.prepare('SELECT id FROM alerts ORDER BY id').all() as Array<{ id: number }>).map((row) => row.id);
    const hit = db.prepare(
      `INSERT INTO alert_hits (user_id, channel_id, alert_type, trigger_key, handle, title, reason, figures, world_ms, last_cycle_id, last_triggered_at)
       VALUES (?, ?, 'outlier', ?, '@bench', 'Bench channel', 'A reason of the usual length for a triggered channel.', '{"views":12345,"multiple":6.1}', ?, ?, ?)`,
    );
    const link = db.prepare('INSERT INTO alert_hit_alerts (alert_id, hit_id, cycle_id, triggered_at) VALUES (?, ?, ?, ?)');
    const cycle = db.prepare("INSERT INTO alert_cycles (reason, started_at, world_ms) VALUES ('command', ?, ?)");
    const fill = db.transaction(() => {
      for (let c = 1; c <= 10; c++) cycle.run(Date.now(), c * DAY);
      for (const alertId of alertIds) {
        for (let i = 0; i < 10_000; i++) {
          const cycleId = 1 + Math.floor(i / 1000);
          const hitId = Number(hit.run(userId, `UCbench${String(alertId).padStart(4, '0')}${String(i).padStart(10, '0')}`, `v${i}`, cycleId * DAY, cycleId, Date.now()).lastInsertRowid);
          link.run(alertId, hitId, cycleId, Date.now());
        }
      }
      db.prepare('UPDATE alerts SET last_cycle_id = 10, last_new_channels = 1000, last_evaluated_at = ?, last_world_ms = ?').run(Date.now(), 10 * DAY);
    });
    fill();
    const rows = (db.prepare('SELECT COUNT(*) AS n FROM alert_hit_alerts').get() as { n: number }).n;
    if (rows !== 1_000_000) throw new Error(`expected 1,000,000 triggered rows, got ${rows}`);
    const folders = await timeMedian(100, () => bench.service.call('folders.list', {}));
    const status = await timeMedian(100, () => bench.service.call('alerts.status', {}));
    const feed = await timeMedian(20, () => bench.service.call('alerts.triggered', {}));
    const oneAlert = await timeMedian(20, () => bench.service.call('alerts.triggered', { alert_id: alertIds[50]!, page: 7 }));
    return [
      { name: 'alerts outlier-status: 100 alerts × 10,000 triggered rows', value: status, unit: 'ms', baseline: { name: 'one folders.list call', value: folders }, budget: 'cheap: < 1 ms, whatever the history' },
      { name: 'alerts triggered, all merged, page 1 (1,000,000 rows)', value: feed, unit: 'ms', baseline: { name: 'one folders.list call', value: folders } },
      { name: 'alerts triggered, one alert, page 7', value: oneAlert, unit: 'ms', baseline: { name: 'one folders.list call', value: folders } },
    ];
  } finally {
    bench.close();
  }
}

export async function alertRows(): Promise<BenchRow[]> {
  return [...(await defaultWorldRows()), ...(await statusRows()), ...(await bigWorldRows())];
}
