/**
 * A fleet: three real `tubekit serve` processes, each with its own data dir, sharing one
 * PostgreSQL database (`--store`). They start at the same moment on an empty database (the
 * migrations run once, under an advisory lock), then serve as one service: what one saves the
 * others see, a job submitted to one is run by another's worker and its long-poll wakes on the
 * first, a per-user cap holds across all of them, and a killed server's job is finished elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { cliSandbox, printedUrl, type CliSandbox } from '../support/cli.js';
import { createTestDatabase } from '../support/postgres.js';

interface Server {
  sandbox: CliSandbox;
  child: ReturnType<CliSandbox['spawn']>;
  url: string;
  pid: number;
}

let storeUrl: string;
const servers: Server[] = [];
let key: string;
let starterKey: string;

const api = async (server: Server, path: string, init: { method?: string; body?: unknown; apiKey?: string } = {}) => {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.apiKey ?? key}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

async function startServer(args: string[]): Promise<Server> {
  const sandbox = cliSandbox();
  const child = sandbox.spawn(['serve', '--port', '0', '--alerts-every', '0', ...args], { env: { TUBEKIT_STORE: storeUrl } });
  const url = await printedUrl(child);
  return { sandbox, child, url, pid: child.pid! };
}

/** A CLI command on the fleet's store, from a data dir of its own (another machine). */
async function fleetCli(args: string[]): Promise<string> {
  const sandbox = cliSandbox();
  try {
    const result = await sandbox.run(args, { env: { TUBEKIT_STORE: storeUrl } });
    if (result.exitCode !== 0) throw new Error(`tubekit ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
    return result.stdout.trim();
  } finally {
    sandbox.cleanup();
  }
}

async function jobRow(id: number): Promise<{ state: string; lease_owner: string | null; attempts: number; finished_at: number | null }> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: storeUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT state, lease_owner, attempts, finished_at::float8 AS finished_at FROM jobs WHERE id = $1', [id]);
    return rows[0];
  } finally {
    await client.end();
  }
}

describe('a fleet of serve processes on one PostgreSQL', () => {
  beforeAll(async () => {
    storeUrl = await createTestDatabase({ migrated: false });
    // All three start on the empty database at once; one migrates, the others wait for it.
    servers.push(...(await Promise.all([startServer(['--workers', '0']), startServer(['--workers', '2']), startServer(['--workers', '2'])])));
    key = await fleetCli(['engine', 'keys', 'create', '--plan', 'ultimate']);
    starterKey = await fleetCli(['engine', 'keys', 'create', '--plan', 'starter']);
    // Short leases, so a killed server's job comes back in about a second; jobs that take a while.
    await fleetCli(['engine', 'limits', 'set', 'starter', 'processChannelPerMinute', '3']);
    await fleetCli(['engine', 'durations', '2500']);
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.child;
      server.sandbox.cleanup();
    }
  });

  it('reports the shared store, reachable and migrated, from every server', async () => {
    for (const server of servers) {
      const health = await api(server, '/api/health');
      expect(health.body.store).toEqual({ kind: 'postgres', reachable: true, schema_version: expect.any(Number) });
    }
  });

  it('lists on one server a folder made on another', async () => {
    const made = await api(servers[0]!, '/api/folders', { method: 'POST', body: { name: 'Made on the first' } });
    expect(made.status).toBe(201);
    for (const server of servers.slice(1)) {
      const listed = await api(server, '/api/folders');
      expect(listed.body.folders.map((folder: { name: string }) => folder.name)).toContain('Made on the first');
    }
    // And the name rule holds across them: the same name (up to case) on another server is a conflict.
    expect((await api(servers[2]!, '/api/folders', { method: 'POST', body: { name: 'MADE ON THE FIRST' } })).status).toBe(409);
  });

  it('runs a job submitted to an API-only server on another server, and wakes the long-poll on the first', async () => {
    const channels = await fleetCli(['--json', 'engine', 'sample', 'channels', '--limit', '1']);
    const handle = JSON.parse(channels).channels[0].handle as string;
    const submitted = await api(servers[0]!, '/api/process-channel', { method: 'POST', body: { channel: handle, type: 'shorts' } });
    expect(submitted.status).toBe(200);
    const id = submitted.body.job_id as number;
    const status = await api(servers[0]!, `/api/process-channel/${id}?wait_seconds=25`);
    const answeredAt = Date.now();
    expect(status.body.status).toBe('completed');
    const row = await jobRow(id);
    expect(row.state).toBe('completed');
    // The first server runs no worker: another one's finish woke it, through NOTIFY, well before
    // its one-second fallback poll would have.
    expect(answeredAt - row.finished_at!).toBeLessThan(400);
  }, 40_000);

  it('holds a per-user cap of 3 a minute across the servers under 20 concurrent requests', async () => {
    const channels = JSON.parse(await fleetCli(['--json', 'engine', 'sample', 'channels', '--limit', '1'])).channels;
    const submits = Array.from({ length: 20 }, (_, index) =>
      api(servers[index % servers.length]!, '/api/process-channel', { method: 'POST', body: { channel: channels[0].handle, type: 'longform' }, apiKey: starterKey }),
    );
    const statuses = (await Promise.all(submits)).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(17);
  }, 40_000);

  it('finishes elsewhere the job of a server killed while running it', async () => {
    const channels = JSON.parse(await fleetCli(['--json', 'engine', 'sample', 'channels', '--limit', '3'])).channels;
    const submitted = await api(servers[0]!, '/api/process-channel', { method: 'POST', body: { channel: channels[2].handle, type: 'longform' } });
    const id = submitted.body.job_id as number;
    let owner: string | null = null;
    for (const deadline = Date.now() + 15_000; !owner; await sleep(20)) {
      if (Date.now() > deadline) throw new Error('no server claimed the job');
      owner = (await jobRow(id)).lease_owner;
    }
    const pid = Number(/^[a-z-]+?-(\d+)-/.exec(owner)![1]);
    const victim = servers.find((server) => server.pid === pid);
    expect(victim, `the job's holder ${owner} is one of the servers`).toBeDefined();
    victim!.child.kill('SIGKILL');
    await victim!.child;
    servers.splice(servers.indexOf(victim!), 1);
    victim!.sandbox.cleanup();
    const status = await api(servers[0]!, `/api/process-channel/${id}?wait_seconds=25`);
    expect(status.body.status).toBe('completed');
    expect((await jobRow(id)).attempts).toBe(2);
  }, 60_000);
});
