/**
 * Mixed load on two `tubekit serve` processes of one fleet while another process migrates the
 * database (columns added to the queue's and the workspace's tables, as a new version would):
 * the 5xx answers and the p99 latency, beside the same load on the same servers without one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import type { BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');
const LANES = 6;
const PHASE_MS = 8_000;
/** When the migration starts, into its phase: the servers are busy by then. */
const MIGRATE_AFTER_MS = 2_000;
const FOLDERS_PER_LANE = 8;

/** What the next version's migration adds (applied in one transaction, as `engine migrate` does). */
const NEXT_VERSION = [
  'ALTER TABLE jobs ADD COLUMN bench_priority INTEGER NOT NULL DEFAULT 0',
  "ALTER TABLE folders ADD COLUMN bench_colour TEXT NOT NULL DEFAULT 'grey'",
  'ALTER TABLE saved_channels ADD COLUMN bench_note TEXT',
  'ALTER TABLE job_workers ADD COLUMN bench_host TEXT',
];

interface Answer {
  status: number;
  ms: number;
}

export async function migrationLoadRows(storeUrl: string): Promise<BenchRow[]> {
  const dirs: string[] = [];
  const machine = () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-migration-'));
    dirs.push(root);
    return { TUBEKIT_DATA_DIR: path.join(root, 'data'), TUBEKIT_CONFIG_DIR: path.join(root, 'config'), TUBEKIT_STORE: storeUrl, NO_COLOR: '1', TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '' };
  };
  const admin = machine();
  const cli = async (args: string[]) => (await execa('node', [BIN, ...args], { env: admin })).stdout.trim();
  const servers: ResultPromise[] = [];
  try {
    await cli(['engine', 'migrate']);
    const key = await cli(['engine', 'keys', 'create', '--plan', 'ultimate']);
    for (const limit of ['processChannelPerMinute', 'jobStatusPerMinute']) await cli(['engine', 'limits', 'set', 'ultimate', limit, '100000']);
    await cli(['engine', 'durations', '50']);
    const channels = (JSON.parse(await cli(['--json', 'engine', 'sample', 'channels', '--limit', '20'])) as { channels: { channel_id: string; handle: string }[] }).channels;
    const urls: string[] = [];
    for (let index = 0; index < 2; index += 1) {
      const child = execa('node', [BIN, 'serve', '--port', '0', '--alerts-every', '0', '--workers', '2'], { env: machine(), reject: false, buffer: { stdout: false } });
      servers.push(child);
      urls.push(await printedUrl(child));
    }
    const load = (phase: string, ms: number) => mixedLoad(urls, key, channels, phase, ms);
    // Each server's first requests build its copy of the sample world: done before anything is timed.
    for (const url of urls) await mixedLoad([url], key, channels, `prime ${url}`, 0, 1);
    await load('warm', 3_000);
    const without = await load('plain', PHASE_MS);
    let migrationMs = 0;
    const during = await Promise.all([
      load('migrating', PHASE_MS),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, MIGRATE_AFTER_MS));
        const started = performance.now();
        await migrate(storeUrl);
        migrationMs = performance.now() - started;
      })(),
    ]).then(([answers]) => answers);
    const errors = (answers: Answer[]) => answers.filter((answer) => answer.status >= 500).length;
    const described = `2 servers, ${LANES} lanes of mixed reads and writes, ${(PHASE_MS / 1000).toFixed(0)} s`;
    return [
      {
        name: `fleet: 5xx answers under mixed load during a migration adding columns (${described}; ${during.length} requests, migration took ${migrationMs.toFixed(0)} ms)`,
        value: errors(during),
        unit: 'answers',
        baseline: errors(without) > 0 ? { name: 'without a migration', value: errors(without) } : undefined,
        budget: '≤ 0 answers',
      },
      {
        name: `fleet: p99 latency under mixed load during a migration adding columns (${described})`,
        value: percentile(during, 0.99),
        unit: 'ms',
        baseline: { name: `the same load without a migration (${without.length} requests, ${errors(without)} 5xx)`, value: percentile(without, 0.99) },
        budget: 'shown beside the plain load (goal: no 5xx, p99 near it)',
      },
    ];
  } finally {
    for (const child of servers) child.kill('SIGTERM');
    await Promise.all(servers);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `LANES` clients for `ms`, each cycling through a folder made, the folders listed, a channel job
 * submitted, its status read and a channel saved, alternating between the servers.
 */
async function mixedLoad(urls: string[], key: string, channels: { channel_id: string; handle: string }[], phase: string, ms: number, lanes = LANES): Promise<Answer[]> {
  const answers: Answer[] = [];
  const until = performance.now() + ms;
  const call = async (url: string, route: string, body?: unknown) => {
    const started = performance.now();
    const response = await fetch(`${url}${route}`, {
      method: body ? 'POST' : 'GET',
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const parsed = (await response.json()) as Record<string, any>;
    answers.push({ status: response.status, ms: performance.now() - started });
    return { status: response.status, body: parsed };
  };
  const lane = async (index: number) => {
    const folders: number[] = [];
    const jobs: number[] = [];
    // At least one round of every kind of request, however short the phase.
    for (let step = 0; step < 5 || performance.now() < until; step += 1) {
      const url = urls[(index + step) % urls.length]!;
      const channel = channels[(index * 7 + step) % channels.length]!;
      switch (step % 5) {
        case 0:
          if (folders.length < FOLDERS_PER_LANE) {
            const made = await call(url, '/api/folders', { name: `${phase} lane ${index} folder ${step}` });
            if (made.status === 201) folders.push(made.body.folder?.id ?? made.body.id);
          }
          break;
        case 1:
          await call(url, '/api/folders');
          break;
        case 2: {
          const submitted = await call(url, '/api/process-channel', { channel: channel.handle, type: 'shorts' });
          if (submitted.status === 200) jobs.push(submitted.body.job_id as number);
          break;
        }
        case 3:
          if (jobs.length > 0) await call(url, `/api/process-channel/${jobs.at(-1)}`);
          break;
        case 4:
          if (folders.length > 0) await call(url, '/api/saved-channels', { folder_id: folders.at(-1), channel_ids: [channel.channel_id] });
          break;
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, index) => lane(index)));
  return answers;
}

async function migrate(storeUrl: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: storeUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const statement of NEXT_VERSION) await client.query(statement);
    await client.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (100000, 'bench: the next version', 0)");
    await client.query('COMMIT');
  } finally {
    await client.end();
  }
}

function percentile(answers: Answer[], fraction: number): number {
  const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/** The base URL a `tubekit serve` prints on stdout; rejects when it exits first. */
function printedUrl(child: ResultPromise): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').slice(0, -1).find((candidate) => candidate.startsWith('http'));
      if (line) resolve(line.trim());
    });
    void child.then((result) => reject(new Error(`serve exited ${result.exitCode} before printing its URL: ${String(result.stderr).slice(-500)}`)));
  });
}
