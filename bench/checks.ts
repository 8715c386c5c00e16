/**
 * Channel checks: a managed-network lookup answered from the pre-checked index, a live check with
 * zero simulated work (in-process and over serve), ad and external-monetization checks with zero
 * work, and network browse (list by members, list by subscribers, one network's detail) over a
 * 100,000-channel world. Baseline: one health call on the same service.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Service } from '../src/core/service.js';
import { Engine } from '../src/engine/engine.js';
import { LocalService } from '../src/engine/local-service.js';
import { setWorkDuration } from '../src/engine/simulated-work.js';
import { RemoteService } from '../src/remote/remote-service.js';
import { startServer } from '../src/server/serve.js';
import { timeMedian, type BenchRow } from './table.js';

const RUNS = 200;
const BROWSE_WORLD = 100_000;

export async function checkRows(): Promise<BenchRow[]> {
  return [...(await checkCallRows(3_000)), ...(await browseRows(BROWSE_WORLD))];
}

interface Bench {
  engine: Engine;
  service: Service;
  close(): void;
}

async function openBench(channels: number): Promise<Bench> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-checks-'));
  const engine = Engine.open({ dataDir, planOverrides: { ultimate: { cmsLiveChecksPerHour: 10_000_000 } }, jobRunner: { mode: 'none' } });
  await engine.reseedWorld({ seed: 1, channels });
  setWorkDuration(engine.settings, { min_ms: 0, max_ms: 0 });
  const service = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
  return {
    engine,
    service,
    close() {
      engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A pre-checked channel of the index (the first check builds it). */
async function precheckedChannel(bench: Bench, status: 'managed' | 'not_managed'): Promise<string> {
  await bench.service.call('cms.networks', { limit: 1 });
  return bench.engine.db
    .prepare<[string], { channel_id: string }>("SELECT channel_id FROM cms_verdicts WHERE source = 'precheck' AND status = ? ORDER BY subscribers DESC LIMIT 1")
    .get(status)!.channel_id;
}

async function checkCallRows(channels: number): Promise<BenchRow[]> {
  const bench = await openBench(channels);
  const server = await startServer({ engine: bench.engine, port: 0 });
  const remote = new RemoteService({ baseUrl: server.url, apiKey: (await bench.engine.identity.createUserWithKey('ultimate', [])).key, maxRetries: 0 });
  const rows: BenchRow[] = [];
  try {
    const managed = await precheckedChannel(bench, 'managed');
    for (const [where, service] of [['in-process', bench.service], ['over serve', remote]] as const) {
      const health = await timeMedian(RUNS, () => service.call('health', {}));
      const baseline = { name: 'one health call', value: health };
      const lookup = await timeMedian(RUNS, () => service.call('cms.check', { channel_id: managed }));
      rows.push({ name: `cms check ${where}: pre-checked lookup (managed, 5-channel sample)`, value: lookup, unit: 'ms', baseline });
      const live = await timeMedian(RUNS, () => service.call('cms.check', { channel_id: managed, refresh: true }));
      rows.push({ name: `cms check ${where}: live check (refresh=1, zero work)`, value: live, unit: 'ms', baseline });
    }
    const health = await timeMedian(RUNS, () => bench.service.call('health', {}));
    const baseline = { name: 'one health call', value: health };
    const ads = await timeMedian(RUNS, () => bench.service.call('monetization.ads', { channel_id: managed }));
    rows.push({ name: 'ad-monetization check in-process (zero work)', value: ads, unit: 'ms', baseline });
    const external = await timeMedian(RUNS, () => bench.service.call('monetization.external', { channel_id: managed }));
    rows.push({ name: 'external monetization in-process (classifier, zero work)', value: external, unit: 'ms', baseline });
  } finally {
    await remote.close();
    await server.close();
    bench.close();
  }
  return rows;
}

async function browseRows(channels: number): Promise<BenchRow[]> {
  const started = performance.now();
  const bench = await openBench(channels);
  const rows: BenchRow[] = [];
  try {
    await precheckedChannel(bench, 'managed');
    const setup = performance.now() - started;
    const verdicts = bench.engine.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM cms_verdicts WHERE status = 'managed'").get()!.n;
    const health = await timeMedian(RUNS, () => bench.service.call('health', {}));
    const baseline = { name: 'one health call', value: health };
    const world = `${channels.toLocaleString('en')} channels, ${verdicts.toLocaleString('en')} verified members`;
    rows.push({ name: `world + pre-checked index built (${channels.toLocaleString('en')} channels)`, value: setup, unit: 'ms' });
    const byMembers = await timeMedian(RUNS, () => bench.service.call('cms.networks', {}));
    rows.push({ name: `network browse, list by members (${world})`, value: byMembers, unit: 'ms', baseline });
    const bySubscribers = await timeMedian(RUNS, () => bench.service.call('cms.networks', { sort: 'subscribers', limit: 100, q: 'media' }));
    rows.push({ name: `network browse, list by subscribers, q=media, limit 100 (${world})`, value: bySubscribers, unit: 'ms', baseline });
    const first = await bench.service.call('cms.networks', { limit: 1 });
    const oid = 'networks' in first ? first.networks[0]!.oid : '';
    const detail = await timeMedian(RUNS, () => bench.service.call('cms.networks', { oid }));
    rows.push({ name: `network browse, detail of the biggest network (${world})`, value: detail, unit: 'ms', baseline });
  } finally {
    bench.close();
  }
  return rows;
}
