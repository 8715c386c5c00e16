/**
 * The fleet store (PostgreSQL) beside the data dir's SQLite file, in one run: queue throughput with
 * 1, 2, 4 and 8 worker processes at zero and 20 ms of work on each store, and serve's GET
 * /api/folders on each store against a bare node:http server. PostgreSQL is the Debian package's
 * server, started for the run in a temporary directory (test/support/postgres-server.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { openEngine } from '../src/engine/open-engine.js';
import { setWorkDuration } from '../src/engine/simulated-work.js';
import { parseStoreLocation } from '../src/engine/store/store-location.js';
import { startPostgres, type PostgresServer } from '../test/support/postgres-server.js';
import { benchWorld } from './sample-world.js';
import { median, type BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fleet-serve-child.js');
const WORKERS = [1, 2, 4, 8];
type StoreKind = 'sqlite' | 'postgres';

export async function fleetRows(): Promise<BenchRow[]> {
  const postgres = await startPostgres();
  try {
    const rows: BenchRow[] = [];
    for (const [workMs, jobs] of [[0, 400], [20, 160]] as const) {
      for (const store of ['postgres', 'sqlite'] as const) rows.push(...(await throughputRows(postgres, store, workMs, jobs)));
    }
    rows.push(...(await serveRows(postgres)));
    return rows;
  } finally {
    await postgres.stop();
  }
}

let databases = 0;
async function newDatabase(postgres: PostgresServer): Promise<string> {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  const name = `bench_${++databases}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return `${postgres.baseUrl}/${name}`;
}

/**
 * `jobs` channel jobs queued, then `n` worker processes started together; the rate is measured from
 * the first claim to the last completion. On PostgreSQL each worker has a data dir of its own (a
 * machine of the fleet, holding a copy of the sample world); on SQLite they share the one file.
 */
async function throughputRows(postgres: PostgresServer, store: StoreKind, workMs: number, jobs: number): Promise<BenchRow[]> {
  const rates: Array<[number, number]> = [];
  for (const workers of WORKERS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-fleet-'));
    const storeUrl = store === 'postgres' ? await newDatabase(postgres) : undefined;
    const engine = await openEngine({
      dataDir,
      store: parseStoreLocation(storeUrl),
      storeOpening: { migrations: 'apply' },
      jobRunner: { mode: 'none' },
    });
    try {
      await engine.loadAllFeatures();
      await setWorkDuration(engine.settings, { min_ms: workMs, max_ms: workMs });
      const channel = (await benchWorld(engine)).sampleChannels(1)[0]!.channel_id;
      const userId = (await engine.identity.createUserWithKey('ultimate', [])).user_id;
      for (let index = 0; index < jobs; index += 1) {
        await engine.jobs.enqueue({ kind: 'channel', userId, input: { channel_input: channel, type: 'longform', channel_id: channel } });
      }
      engine.db.pragma('wal_checkpoint(TRUNCATE)');
      const children: ResultPromise[] = [];
      for (let index = 0; index < workers; index += 1) {
        let workerDir = dataDir;
        if (store === 'postgres') {
          workerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-fleet-worker-'));
          fs.copyFileSync(path.join(dataDir, 'tubekit.db'), path.join(workerDir, 'tubekit.db'));
        }
        children.push(
          execa('node', [BIN, 'engine', 'worker', '--until-idle', '--idle', '0', '--concurrency', '1', '--data-dir', workerDir], {
            reject: false,
            env: { TUBEKIT_STORE: storeUrl ?? '' },
          }),
        );
      }
      const results = await Promise.all(children);
      const failed = results.find((result) => result.exitCode !== 0);
      if (failed) throw new Error(`a worker exited ${failed.exitCode}: ${String(failed.stderr).slice(-500)}`);
      const span = (await engine.store.get<{ first: number; last: number; done: number }>(
        `SELECT MIN(claimed_at) AS first, MAX(finished_at) AS last, SUM(CASE WHEN state = 'completed' THEN 1 ELSE 0 END) AS done FROM jobs`,
      ))!;
      if (Number(span.done) !== jobs) throw new Error(`${jobs - Number(span.done)} jobs did not complete with ${workers} ${store} workers`);
      rates.push([workers, (jobs / Math.max(1, span.last - span.first)) * 1000]);
    } finally {
      await engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      for (const entry of fs.readdirSync(os.tmpdir())) {
        if (entry.startsWith('tubekit-bench-fleet-worker-')) fs.rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true });
      }
    }
  }
  const single = rates[0]![1];
  return rates.map(([workers, rate]) => ({
    name: `${store} queue throughput, ${workers} worker process${workers === 1 ? '' : 'es'} (${workMs ? `${workMs} ms work` : 'zero work'})`,
    value: rate,
    unit: 'jobs/s',
    baseline: workers === 1 ? undefined : { name: '1 worker', value: single },
    budget: workers === 1 ? undefined : workMs > 0 ? (workers === 8 && store === 'postgres' ? '≥ 6×' : undefined) : store === 'postgres' ? '≥ 1×' : undefined,
  }));
}

/** GET /api/folders through serve on each store, each against a bare node:http server in the same child. */
async function serveRows(postgres: PostgresServer): Promise<BenchRow[]> {
  const { default: autocannon } = await import('autocannon');
  const rows: BenchRow[] = [];
  for (const store of ['postgres', 'sqlite'] as const) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-fleet-serve-'));
    const storeUrl = store === 'postgres' ? await newDatabase(postgres) : '';
    const child = execa('node', [CHILD, dataDir, storeUrl], { stdout: 'pipe', stderr: 'inherit', buffer: false });
    try {
      const info = await firstLine<{ serveUrl: string; bareUrl: string; key: string }>(child.stdout!);
      const headers = { authorization: `Bearer ${info.key}` };
      const rate = async (url: string) => (await autocannon({ url: `${url}/api/folders`, connections: 10, duration: 2, headers })).requests.average;
      await rate(info.serveUrl); // warm up
      const bare: number[] = [];
      const served: number[] = [];
      for (let round = 0; round < 3; round += 1) {
        bare.push(await rate(info.bareUrl));
        served.push(await rate(info.serveUrl));
      }
      rows.push({
        name: `serve on ${store}: GET /api/folders (authenticated)`,
        value: median(served),
        unit: 'req/s',
        baseline: { name: 'bare node:http', value: median(bare) },
        budget: store === 'postgres' ? '≥ 0.4×' : '≥ 0.5×',
      });
    } finally {
      child.kill('SIGTERM');
      await child.catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return rows;
}

function firstLine<T>(stream: NodeJS.ReadableStream): Promise<T> {
  return new Promise((resolve, reject) => {
    let seen = '';
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const end = seen.indexOf('\n');
      if (end >= 0) resolve(JSON.parse(seen.slice(0, end)) as T);
    });
    stream.once('end', () => reject(new Error('the serve child exited before printing its URLs')));
  });
}
