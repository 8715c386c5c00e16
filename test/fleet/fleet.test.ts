/**
 * A fleet: three real `tubekit serve` processes, each with its own data dir, sharing one
 * PostgreSQL database (`--store`). They start at the same moment on an empty database (the
 * migrations run once, under an advisory lock), then serve as one service: what one saves the
 * others see, a job submitted to one is run by another's worker and its long-poll wakes on the
 * first, a per-user cap holds across all of them, and a killed server's job is finished elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { Fleet, fleetApi } from '../support/fleet.js';
import { createTestDatabase } from '../support/postgres.js';

const fleet = new Fleet();
const { servers } = fleet;
let key: string;
let starterKey: string;

const api = (server: (typeof servers)[number], path: string, init: { method?: string; body?: unknown; apiKey?: string } = {}) =>
  fleetApi(server, path, { ...init, apiKey: init.apiKey ?? key });
const fleetCli = (args: string[]) => fleet.cli(args);

async function jobRow(id: number): Promise<{ state: string; lease_owner: string | null; attempts: number; finished_at: number | null }> {
  const [row] = await fleet.query<{ state: string; lease_owner: string | null; attempts: number; finished_at: number | null }>(
    'SELECT state, lease_owner, attempts, finished_at::float8 AS finished_at FROM jobs WHERE id = $1',
    [id],
  );
  return row!;
}

describe('a fleet of serve processes on one PostgreSQL', () => {
  beforeAll(async () => {
    fleet.storeUrl = await createTestDatabase({ migrated: false });
    // All three start on the empty database at once; one migrates, the others wait for it.
    await Promise.all([fleet.start(['--workers', '0']), fleet.start(['--workers', '2']), fleet.start(['--workers', '2'])]);
    key = await fleetCli(['engine', 'keys', 'create', '--plan', 'ultimate']);
    starterKey = await fleetCli(['engine', 'keys', 'create', '--plan', 'starter']);
    // Short leases, so a killed server's job comes back in about a second; jobs that take a while.
    await fleetCli(['engine', 'limits', 'set', 'starter', 'processChannelPerMinute', '3']);
    await fleetCli(['engine', 'durations', '2500']);
  }, 120_000);

  afterAll(() => fleet.stop());

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
