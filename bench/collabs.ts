/**
 * The collab feed and the OpenAPI document, at the default world (seed 1, 3,000 channels): the
 * feed (30 days, pages 1–5 in turn; newest first and by views) in-process and over serve, its first
 * call after the world moved (the known-collab index is read again), and `GET /api/openapi.json`
 * (built once per process). Baseline: one health call on the same service.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Service } from '../src/core/service.js';
import { Engine } from '../src/engine/engine.js';
import { LocalService } from '../src/engine/local-service.js';
import { RemoteService } from '../src/remote/remote-service.js';
import { startServer } from '../src/server/serve.js';
import { median, timeMedian, type BenchRow } from './table.js';

const RUNS = 200;

export async function collabRows(): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-collabs-'));
  const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' } });
  const key = (await engine.identity.createUserWithKey('ultimate', [])).key;
  const server = await startServer({ engine, port: 0 });
  const local = new LocalService(engine, key);
  const remote = new RemoteService({ baseUrl: server.url, apiKey: key, maxRetries: 0 });
  const rows: BenchRow[] = [];
  try {
    await local.call('collabs.feed', { days: 30 }); // builds the world
    for (const [where, service] of [['in-process', local], ['over serve', remote]] as const) {
      const baseline = { name: 'one health call', value: await timeMedian(RUNS, () => service.call('health', {})) };
      for (const sort of ['newest', 'views'] as const) {
        rows.push({ name: `collabs feed ${where}: days=30, sort=${sort}, pages 1–5 (p50)`, value: await feedMedian(service, sort), unit: 'ms', baseline, budget: '≤ 2 ms' });
      }
    }
    const baseline = { name: 'one health call', value: await timeMedian(RUNS, () => local.call('health', {})) };
    const afterMoves: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      await engine.advanceWorld('1h');
      afterMoves.push(await timeMedian(1, () => local.call('collabs.feed', { days: 30 })));
    }
    rows.push({ name: 'collabs feed in-process: first call after the world moved 1h (index read again)', value: median(afterMoves), unit: 'ms', baseline });

    const fetchMedian = (url: string) => timeMedian(RUNS, async () => (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
    const health = await fetchMedian(`${server.url}/api/health`);
    const openApi = await fetchMedian(`${server.url}/api/openapi.json`);
    rows.push({ name: 'serve: GET /api/openapi.json (p50)', value: openApi, unit: 'ms', baseline: { name: 'GET /api/health', value: health } });
  } finally {
    await remote.close();
    await server.close();
    engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

async function feedMedian(service: Service, sort: 'newest' | 'views'): Promise<number> {
  let call = 0;
  return timeMedian(RUNS, () => service.call('collabs.feed', { days: 30, sort, page: (call++ % 5) + 1 }));
}
