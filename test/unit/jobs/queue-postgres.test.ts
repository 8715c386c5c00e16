/**
 * The queue on PostgreSQL, between two engines on one database (two machines of a fleet): claims
 * made at the same moment never share a job, and a user's concurrency cap holds across them.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine.js';
import { FINISHED_CHANNEL } from '../../../src/engine/jobs/queue.js';
import { registerJobProcessor } from '../../../src/engine/jobs/registry.js';
import { openEngine } from '../../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../../src/engine/store/store-location.js';
import { tempDataDir } from '../../support/engines.js';
import { createTestDatabase } from '../../support/postgres.js';

registerJobProcessor<Record<string, never>, Record<string, never>>({ kind: 'test-pg-task', family: 'task', process: async () => ({}) });
registerJobProcessor<Record<string, never>, Record<string, never>>({ kind: 'test-pg-channel', family: 'channel', process: async () => ({}) });
registerJobProcessor<Record<string, never>, Record<string, never>>({ kind: 'test-pg-set-task', family: 'task', process: async () => ({}) });
registerJobProcessor<Record<string, never>, Record<string, never>>({ kind: 'test-pg-set-channel', family: 'channel', process: async () => ({}) });

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

  it('announces a finish to the fleet only when a long-poll watches the job', async () => {
    const { user_id } = await engines[0]!.identity.createUserWithKey('ultimate', []);
    const heard: string[] = [];
    const stop = await engines[0]!.store.listen(FINISHED_CHANNEL, (payload) => heard.push(payload));
    try {
      const quiet = (await enqueue(user_id)).row;
      await engines[1]!.jobs.queue.claim(`${hosts[1]}/quiet`, ['test-pg-task'], 60_000);
      await engines[1]!.jobs.queue.finish(quiet.id, `${hosts[1]}/quiet`, { output: {} });
      const watched = (await enqueue(user_id)).row;
      await engines[1]!.jobs.queue.claim(`${hosts[1]}/watched`, ['test-pg-task'], 60_000);
      expect(await engines[0]!.jobs.queue.watch(watched.id)).toBe(true);
      await engines[1]!.jobs.queue.finish(watched.id, `${hosts[1]}/watched`, { output: {} });
      for (let tries = 0; heard.length === 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard).toEqual([String(watched.id)]);
    } finally {
      stop();
    }
  });

  it('finishes a channel job and claims the next waiting one in one statement, never one another machine holds', async () => {
    const { user_id } = await engines[0]!.identity.createUserWithKey('ultimate', []);
    const channelJob = () => engines[0]!.jobs.enqueue({ kind: 'test-pg-channel', userId: user_id, input: {} });
    const [first, second, third] = [(await channelJob()).row, (await channelJob()).row, (await channelJob()).row];
    expect((await engines[0]!.jobs.queue.claim(`${hosts[0]}/a`, ['test-pg-channel'], 60_000))!.id).toBe(first.id);
    expect((await engines[1]!.jobs.queue.claim(`${hosts[1]}/b`, ['test-pg-channel'], 60_000))!.id).toBe(second.id);
    const found = await engines[0]!.jobs.queue.finishAndClaim(first.id, `${hosts[0]}/a`, { output: { ok: true } }, { owner: `${hosts[0]}/c`, kinds: ['test-pg-channel'], leaseMs: 60_000 });
    expect(found.finished).toMatchObject({ id: first.id, state: 'completed', result: '{"ok":true}' });
    expect(found.claimed).toMatchObject({ id: third.id, state: 'running', lease_owner: `${hosts[0]}/c`, attempts: 1 });
    expect(Object.keys(found.claimed!)).not.toContain('watched');
    // A lost lease records nothing; the claim stands on its own (nothing is left to claim here).
    const again = await engines[1]!.jobs.queue.finishAndClaim(first.id, `${hosts[1]}/b`, { output: {} }, { owner: `${hosts[1]}/d`, kinds: ['test-pg-channel'], leaseMs: 60_000 });
    expect(again).toEqual({});
  });

  it('claims a job only for a worker with the settings it was submitted with, on every claim path', async () => {
    const queue = engines[1]!.jobs.queue;
    const { user_id: userId } = await engines[0]!.identity.createUserWithKey('ultimate', []);
    const submit = (kind: string) => engines[0]!.jobs.queue.enqueue({ kind, family: kind === 'test-pg-set-task' ? 'task' : 'channel', userId, input: {}, publicId: `pg-${Math.random().toString(36).slice(2)}`, settingsDigest: 'digest-b' });
    const task = await submit('test-pg-set-task');
    const channel = await submit('test-pg-set-channel');
    expect(await queue.claim(`${hosts[1]}/s1`, ['test-pg-set-task', 'test-pg-set-channel'], 60_000, 'digest-a')).toBeUndefined();
    expect(await queue.claim(`${hosts[1]}/s2`, ['test-pg-set-task', 'test-pg-set-channel'], 60_000)).toBeUndefined();
    expect(await queue.hasWaiting(['test-pg-set-task'], undefined, 'digest-a')).toBe(false);
    expect((await queue.claim(`${hosts[1]}/s3`, ['test-pg-set-task'], 60_000, 'digest-b'))!.id).toBe(task.row.id);
    // The finish-and-claim of the next channel job looks at the settings too.
    const held = await queue.claim(`${hosts[1]}/s4`, ['test-pg-set-channel'], 60_000, 'digest-b');
    expect(held!.id).toBe(channel.row.id);
    const other = await submit('test-pg-set-channel');
    const passed = await queue.finishAndClaim(held!.id, `${hosts[1]}/s4`, { output: {} }, { owner: `${hosts[1]}/s5`, kinds: ['test-pg-set-channel'], leaseMs: 60_000, settingsDigest: 'digest-a' });
    expect([passed.finished?.state, passed.claimed]).toEqual(['completed', undefined]);
    expect((await queue.claim(`${hosts[1]}/s6`, ['test-pg-set-channel'], 60_000, 'digest-b'))!.id).toBe(other.row.id);
    // A spawn is reserved unless a live host has those settings.
    expect(await engines[1]!.jobs.hosts.reserveSpawn('digest-c')).toBe(true);
    expect(await engines[1]!.jobs.hosts.reserveSpawn('digest-c')).toBe(false);
    await engines[1]!.jobs.hosts.register('detached', { settingsDigest: 'digest-d' });
    expect(await engines[1]!.jobs.hosts.reserveSpawn('digest-d')).toBe(false);
  });
});
