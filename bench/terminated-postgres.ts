/**
 * Terminated search at a million channels on PostgreSQL (issue 22): the same 1,000,000 channels
 * (the import bench's lines: 64 topic words, 8 a channel) loaded into the live terminated store of
 * an engine on PostgreSQL (a server started for the run, as the tests start theirs) and of one on
 * SQLite beside it, both through the store's own writer in batches of the import's size; then the
 * sample world's query mix (bench/terminated.ts), through the engine's API, p50 and p95 each.
 * Budget (issue 22): every query of the mix p50 ≤ 50 ms and p95 ≤ 200 ms on PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RouteInput } from '../src/core/routes.js';
import type { Engine } from '../src/engine/engine.js';
import { checkLine } from '../src/engine/features/terminated/import/import-line.js';
import { BATCH } from '../src/engine/features/terminated/import/import-terminated.js';
import type { TerminatedEntry } from '../src/engine/index/terminated/live-store.js';
import { LocalService } from '../src/engine/local-service.js';
import { openEngine } from '../src/engine/open-engine.js';
import { parseStoreLocation } from '../src/engine/store/store-location.js';
import { startPostgres } from '../test/support/postgres-server.js';
import { channelLines } from './terminated-import.js';
import type { BenchRow } from './table.js';
import { latencies, queryMix, SEVERAL } from './terminated.js';

const CHANNELS = Number(process.env.BENCH_TERMINATED_PG ?? 1_000_000);
const NOW = Date.UTC(2026, 10, 21, 12);

type Query = RouteInput<'terminated.search'>;

const RARE = '417'; // a number in one name in a thousand
const COMMON = 'cooking'; // in about one channel in nine
const MIX = queryMix(RARE, COMMON);

/** Reported, outside the budget (as in bench/terminated.ts): several keywords by similarity, and a word in every channel. */
const BEYOND: Array<[label: string, query: Query]> = [
  ['several keywords, similarity_desc (beyond the mix)', { q: SEVERAL, sort: 'similarity_desc' }],
  ['"part", in every channel (beyond the mix)', { q: 'part' }],
  ['"part", subs_desc (beyond the mix)', { q: 'part', sort: 'subs_desc' }],
];

export async function terminatedPostgresRows(): Promise<BenchRow[]> {
  const postgres = await startPostgres();
  const dirs: string[] = [];
  const engines: Engine[] = [];
  try {
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE bench_terminated');
    await admin.end();
    const url = `${postgres.baseUrl}/bench_terminated`;
    const count = CHANNELS.toLocaleString('en-US');
    const rows: BenchRow[] = [];
    const services: Array<[store: string, service: LocalService]> = [];
    // BENCH_TERMINATED_STORES=postgres measures PostgreSQL alone (while working on it).
    const stores = (process.env.BENCH_TERMINATED_STORES ?? 'postgres,sqlite').split(',') as Array<'postgres' | 'sqlite'>;
    for (const store of stores) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `tubekit-bench-terminated-${store}-`));
      dirs.push(dataDir);
      const engine = await openEngine({
        dataDir,
        jobRunner: { mode: 'none' },
        clock: { now: () => NOW },
        ...(store === 'postgres' ? { store: parseStoreLocation(url), storeOpening: { migrations: 'apply' as const } } : {}),
      });
      engines.push(engine);
      await engine.localSettings.set('platform', 'live');
      const seconds = await load(engine);
      console.error(`[bench] loaded ${count} terminated channels into ${store} in ${seconds.toFixed(1)} s`);
      // What autovacuum does on a server that runs: statistics for the planner, and pages marked all-visible (counts skip them).
      if (store === 'postgres') await engine.store.run('VACUUM ANALYZE live_terminated');
      rows.push({ name: `terminated on ${store}: load ${count} channels through the store's writer`, value: CHANNELS / seconds, unit: 'records/s' });
      const key = (await engine.identity.createUserWithKey('starter', [])).key;
      services.push([store, new LocalService(engine, key)]);
    }
    for (const [label, query] of [...MIX, ...BEYOND]) {
      const budgeted = MIX.some(([name]) => name === label);
      for (const [store, service] of services) {
        const { p50, p95 } = await latencies(service, query);
        const checked = budgeted && store === 'postgres';
        rows.push({ name: `terminated ${count} on ${store}: ${label} p50`, value: p50, unit: 'ms', budget: checked ? '≤ 50 ms' : undefined });
        rows.push({ name: `terminated ${count} on ${store}: ${label} p95`, value: p95, unit: 'ms', budget: checked ? '≤ 200 ms' : undefined });
      }
    }
    return rows;
  } finally {
    for (const engine of engines) await engine.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    await postgres.stop();
  }
}

/** The channels, checked as the import checks its lines, written in the import's batches; seconds taken. */
async function load(engine: Engine): Promise<number> {
  const store = await engine.liveTerminatedStore();
  const started = performance.now();
  let batch: TerminatedEntry[] = [];
  for (const line of channelLines(0, CHANNELS)) {
    const checked = checkLine(line, NOW);
    if ('error' in checked) throw new Error(`bench line refused: ${checked.error}`);
    batch.push(checked.entry);
    if (batch.length === BATCH) {
      await store.write(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await store.write(batch);
  return (performance.now() - started) / 1000;
}
