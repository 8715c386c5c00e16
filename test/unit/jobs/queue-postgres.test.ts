/**
 * The queue on PostgreSQL, between two engines on one database (two machines of a fleet): claims
 * made at the same moment never share a job, and a user's concurrency cap holds across them.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine.js';
import { registerJobProcessor } from '../../../src/engine/jobs/registry.js';
import { openEngine } from '../../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../../src/engine/store/store-location.js';
import { tempDataDir } from '../../support/engines.js';
import { createTestDatabase } from '../../support/postgres.js';

registerJobProcessor<Record<string, never>, Record<string, never>>({ kind: 'test-pg-task', family: 'task', process: async () => ({}) });

describe('job queue on PostgreSQL, two machines', () => {
  const engines: Engine[] = [];
  const dirs: string[] = [];
  let hosts: string[];
  beforeAll(async () => {
    const store = parseStoreLocation(await createTestDatabase());
    for (let machine = 0; machine < 2; machine += 1) {
      const dataDir = tempDataDir();
      dirs.push(dataDir);
      engines.push(await openEngine({ dataDir, store, jobRunner: { mode: 'none' }, planOverrides: { starter: { concurrentJobs: 2 } } }));
    }
    hosts = await Promise.all(engines.map((engine) => engine.jobs.hosts.register('foreground')));
  });
  afterAll(async () => {
    for (const engine of engines) await engine.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const enqueue = (userId: number) =>
    engines[0]!.jobs.enqueue({ kind: 'test-pg-task', userId, input: {}, publicId: `pg-${Math.random().toString(36).slice(2)}` });

  it('never gives one job to two claimers, however many claim at once', async () => {
    const users = await Promise.all(Array.from({ length: 30 }, () => engines[0]!.identity.createUserWithKey('ultimate', [])));
    for (const user of users) await enqueue(user.user_id);
    const claims = await Promise.all(
      Array.from({ length: 40 }, (_, index) => engines[index % 2]!.jobs.queue.claim(`${hosts[index % 2]}/${index}`, ['test-pg-task'], 60_000)),
    );
    const claimed = claims.filter((row) => row !== undefined).map((row) => row!.id);
    expect(claimed).toHaveLength(30);
    expect(new Set(claimed).size).toBe(30);
  });

  it("holds a user's concurrency cap across machines claiming at the same moment", async () => {
    const { user_id } = await engines[0]!.identity.createUserWithKey('starter', []);
    for (let index = 0; index < 6; index += 1) await enqueue(user_id);
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, index) => engines[index % 2]!.jobs.queue.claim(`${hosts[index % 2]}/cap-${index}`, ['test-pg-task'], 60_000)),
    );
    expect(claims.filter((row) => row !== undefined)).toHaveLength(2);
    const { n } = (await engines[1]!.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE user_id = ? AND state = 'processing'`, [user_id]))!;
    expect(n).toBe(2);
  });

  it('wakes a waiter on one machine when a job finishes on the other', async () => {
    const { user_id } = await engines[0]!.identity.createUserWithKey('ultimate', []);
    const { row } = await enqueue(user_id);
    const claimed = (await engines[1]!.jobs.queue.claim(`${hosts[1]}/wake`, ['test-pg-task'], 60_000))!;
    expect(claimed.id).toBe(row.id);
    const waiting = engines[0]!.jobs.wait(async () => (await engines[0]!.jobs.queue.get(row.id))!, 10);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const finishedAt = Date.now();
    await engines[1]!.jobs.queue.finish(row.id, `${hosts[1]}/wake`, { output: {} });
    const done = await waiting;
    expect(done.state).toBe('completed');
    // The notification, not the one-second fallback poll, ended the wait.
    expect(Date.now() - finishedAt).toBeLessThan(150);
  });
});
