/**
 * The fleet store (PostgreSQL) beside the data dir's SQLite file, in one run: queue throughput with
 * 1, 2, 4 and 8 worker processes at zero and 20 ms of work on each store, and serve's GET
 * /api/folders on each store against a bare node:http server, and mixed load on two servers during a
 * migration (fleet-migration.ts). PostgreSQL is the Debian package's
 * server, started for the run in a temporary directory (test/support/postgres-server.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { openEngine } from '../src/engine/open-engine.js';
import { ENQUEUED_CHANNEL } from '../src/engine/jobs/queue.js';
import { setWorkDuration } from '../src/engine/simulated-work.js';
import { parseStoreLocation } from '../src/engine/store/store-location.js';
import { startPostgres, type PostgresServer } from '../test/support/postgres-server.js';
import { migrationLoadRows } from './fleet-migration.js';
import { benchWorld } from './sample-world.js';
import { median, type BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');
const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fleet-serve-child.js');
const WORKERS = [1, 2, 4, 8];
/**
 * Jobs spread over this many channels: the rows measure the queue. Every job of one channel
 * upserts that channel's index row and its videos, so 8 workers on one channel mostly wait on
 * that row's lock (sampled in pg_stat_activity) — shown apart, in the "one channel" rows.
 */
const CHANNELS = 100;
const WARM_UP_JOBS_PER_WORKER = 20;
type StoreKind = 'sqlite' | 'postgres';

export async function fleetRows(): Promise<BenchRow[]> {
  // BENCH_FLEET=queue or serve runs one half (while working on one of them); queue-postgres only the
  // Postgres zero-work rows of 1 and 8 workers (comparing two builds' queues); migration only the
  // mixed load during a migration.
  const part = process.env.BENCH_FLEET;
  const postgres = await startPostgres();
  try {
    const rows: BenchRow[] = [];
    if (part === 'queue-postgres') return await throughputRows(postgres, 'postgres', 0, 1_200, { workers: [1, 8] });
    if (part === 'migration') return await migrationLoadRows(await newDatabase(postgres));
    if (part !== 'serve') {
      // 1,200 jobs with no work take a few seconds, long enough for a steady rate.
      for (const [workMs, jobs] of [[0, 1_200], [20, 320]] as const) {
        for (const store of ['postgres', 'sqlite'] as const) rows.push(...(await throughputRows(postgres, store, workMs, jobs)));
      }
      rows.push(...(await throughputRows(postgres, 'postgres', 0, 1_200, { workers: [1, 8], channels: 1 })));
    }
    if (part !== 'queue') rows.push(...(await serveRows(postgres)), ...(await migrationLoadRows(await newDatabase(postgres))));
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
 * `n` worker processes started, registered and warmed up on a first batch, then `jobs` channel jobs
 * queued in one transaction; the rate is measured from the batch's first claim to its last
 * completion, so neither process start-up nor the submits are counted. On PostgreSQL each worker has a data dir of its own (a
 * machine of the fleet, holding a copy of the sample world); on SQLite they share the one file.
 */
async function throughputRows(
  postgres: PostgresServer,
  store: StoreKind,
  workMs: number,
  jobs: number,
  { workers: counts = WORKERS, channels: channelCount = CHANNELS } = {},
): Promise<BenchRow[]> {
  const rates: Array<[number, number]> = [];
  for (const workers of counts) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-fleet-'));
    const storeUrl = store === 'postgres' ? await newDatabase(postgres) : undefined;
    const engine = await openEngine({
      dataDir,
      store: parseStoreLocation(storeUrl),
      storeOpening: { migrations: 'apply' },
      jobRunner: { mode: 'none' },
    });
    const children: ResultPromise[] = [];
    try {
      await engine.loadAllFeatures();
      await setWorkDuration(engine.settings, { min_ms: workMs, max_ms: workMs });
      const channels = (await benchWorld(engine)).sampleChannels(channelCount).map((channel) => channel.channel_id);
      const userId = (await engine.identity.createUserWithKey('ultimate', [])).user_id;
      engine.db.pragma('wal_checkpoint(TRUNCATE)');
      for (let index = 0; index < workers; index += 1) {
        let workerDir = dataDir;
        if (store === 'postgres') {
          workerDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-fleet-worker-'));
          fs.copyFileSync(path.join(dataDir, 'tubekit.db'), path.join(workerDir, 'tubekit.db'));
        }
        children.push(
          execa('node', [BIN, 'engine', 'worker', '--concurrency', '1', '--data-dir', workerDir], {
            reject: false,
            env: { TUBEKIT_STORE: storeUrl ?? '' },
          }),
        );
      }
      await until(async () => (await engine.jobs.hosts.live()).length === workers, children);
      const inputOf = (index: number) => {
        const channel = channels[index % channels.length]!;
        return JSON.stringify({ channel_input: channel, type: 'longform', channel_id: channel });
      };
      const runBatch = async (count: number) => {
        const before = (await engine.store.get<{ id: number }>('SELECT COALESCE(MAX(id), 0) AS id FROM jobs'))!.id;
        await engine.store.transaction(async (tx) => {
          for (let index = 0; index < count; index += 1) {
            await tx.run(`INSERT INTO jobs (kind, user_id, state, input, requested_at) VALUES ('channel', ?, 'queued', ?, ?)`, [userId, inputOf(index), Date.now()]);
          }
        });
        await engine.store.notify(ENQUEUED_CHANNEL, ':channel');
        const batch = () => engine.store.get<{ first: number; last: number; done: number; completed: number }>(
          `SELECT MIN(claimed_at) AS first, MAX(finished_at) AS last, SUM(CASE WHEN state IN ('completed', 'failed') THEN 1 ELSE 0 END) AS done,
                  SUM(CASE WHEN state = 'completed' THEN 1 ELSE 0 END) AS completed FROM jobs WHERE id > ?`,
          [before],
        );
        await until(async () => Number((await batch())!.done) === count, children);
        const span = (await batch())!;
        if (Number(span.completed) !== count) throw new Error(`${count - Number(span.completed)} jobs failed with ${workers} ${store} workers`);
        return span;
      };
      // A first batch warms every worker up (code compiled, connections and caches made), so the
      // measured one shows the queue, not each process's first jobs.
      // Every channel is read once there too, so the measured jobs find what the first read caches.
      await runBatch(Math.max(WARM_UP_JOBS_PER_WORKER * workers, channels.length));
      const span = await runBatch(jobs);
      rates.push([workers, (jobs / Math.max(1, span.last - span.first)) * 1000]);
    } finally {
      for (const child of children) child.kill('SIGTERM');
      await Promise.all(children);
      await engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      for (const entry of fs.readdirSync(os.tmpdir())) {
        if (entry.startsWith('tubekit-bench-fleet-worker-')) fs.rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true });
      }
    }
  }
  const single = rates[0]![1];
  const oneChannel = channelCount === 1;
  return rates.map(([workers, rate]) => ({
    name: `${store} queue throughput, ${workers} worker process${workers === 1 ? '' : 'es'} (${workMs ? `${workMs} ms work` : 'zero work'}${oneChannel ? ', one channel' : ''})`,
    value: rate,
    unit: 'jobs/s',
    baseline: workers === 1 ? undefined : { name: '1 worker', value: single },
    budget: workers === 1 || oneChannel ? undefined : workMs > 0 ? (workers === 8 && store === 'postgres' ? '≥ 6×' : undefined) : store === 'postgres' ? '≥ 1×' : undefined,
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
      const info = await firstLine<{ serveUrl: string; bareUrl: string; key: string; world?: { checkedUrl: string; rememberedUrl: string; folderId: number } }>(child.stdout!);
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
      if (info.world) rows.push(await worldCheckRow(autocannon, info.world, headers));
    } finally {
      child.kill('SIGTERM');
      await child.catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(`${dataDir}-remembered`, { recursive: true, force: true });
    }
  }
  return rows;
}

/**
 * A read of the sample world on a fleet (a folder's 5 channels with their figures): on a server
 * that reads the fleet's world row before each read of the world, against one that trusts its
 * notifications (the row read once), on the same store in the same child.
 */
async function worldCheckRow(
  autocannon: typeof import('autocannon').default,
  world: { checkedUrl: string; rememberedUrl: string; folderId: number },
  headers: Record<string, string>,
): Promise<BenchRow> {
  const rate = async (url: string) => (await autocannon({ url: `${url}/api/folders/${world.folderId}/channels`, connections: 10, duration: 2, headers })).requests.average;
  await rate(world.checkedUrl);
  await rate(world.rememberedUrl);
  const checked: number[] = [];
  const remembered: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    remembered.push(await rate(world.rememberedUrl));
    checked.push(await rate(world.checkedUrl));
  }
  return {
    name: 'serve on postgres: GET /api/folders/:id/channels (5 channels of the sample world), the world\'s row read first',
    value: median(checked),
    unit: 'req/s',
    baseline: { name: 'the world from memory (notifications only)', value: median(remembered) },
    budget: '≈ 1× (the check costs nothing noticeable)',
  };
}

/** Polls `done` every 20 ms; throws if a worker exits first (its error would otherwise be a hang). */
async function until(done: () => Promise<boolean>, children: ResultPromise[]): Promise<void> {
  let exited: string | undefined;
  for (const child of children) void child.then((result) => (exited ??= `a worker exited ${result.exitCode}: ${String(result.stderr).slice(-500)}`));
  const deadline = Date.now() + 300_000;
  while (!(await done())) {
    if (exited) throw new Error(exited);
    if (Date.now() > deadline) throw new Error('the workers did not finish within 5 minutes');
    // Rates come from the jobs' own timestamps: looking less often only spares the workers' CPU.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
