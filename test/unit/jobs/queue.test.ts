import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/engine/clock.js';
import { Engine, type EngineOptions } from '../../../src/engine/engine.js';
import { abandonedMessage } from '../../../src/engine/jobs/queue.js';
import { registerJobProcessor } from '../../../src/engine/jobs/registry.js';
import { Worker } from '../../../src/engine/jobs/worker.js';
import { processAlive } from '../../../src/engine/process-alive.js';
import { tempDataDir } from '../../support/engines.js';

/** A task-family kind whose work the tests control: it waits `ms` and records each run. */
const runs = new Map<number, number>();
registerJobProcessor<{ ms: number }, { ran: number }>({
  kind: 'test-sleep',
  family: 'task',
  async process(job, { signal }) {
    runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
    await sleep(job.input.ms, undefined, { signal });
    return { ran: runs.get(job.id)! };
  },
});

registerJobProcessor<Record<string, never>, Record<string, never>>({ kind: 'test-channel', family: 'channel', process: async () => ({}) });

const opened: Engine[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const engine of opened.splice(0)) await engine.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function open(options: Partial<EngineOptions> = {}, dataDir = tempDataDir()): Engine {
  dirs.push(dataDir);
  const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' }, ...options });
  opened.push(engine);
  return engine;
}

/**
 * A lease owner on a live worker host of `engine`: a job whose holder is known dead is recovered at
 * once, so claims in these tests come from a registered host (this process) unless a test says not.
 */
const hosts = new WeakMap<Engine, string>();
async function hold(engine: Engine, name: string): Promise<string> {
  if (!hosts.has(engine)) hosts.set(engine, await engine.jobs.hosts.register('foreground'));
  return `${hosts.get(engine)}/${name}`;
}

async function enqueueSleep(engine: Engine, ms = 0, userId?: number) {
  userId ??= (await engine.identity.createUserWithKey('starter', [])).user_id;
  return (await engine.jobs.enqueue({ kind: 'test-sleep', userId, input: { ms }, publicId: `t-${Math.random().toString(36).slice(2)}` })).row;
}

describe('job queue', () => {
  it('never gives one job to two claimers on separate connections', async () => {
    const first = open();
    const second = open({}, first.dataDir);
    // One user per job: a user's own task jobs are capped at their plan's concurrency.
    for (let index = 0; index < 40; index += 1) (await enqueueSleep(first));
    const claimed: number[] = [];
    for (let turn = 0; ; turn += 1) {
      const engine = turn % 2 === 0 ? first : second;
      const row = (await engine.jobs.queue.claim((await hold(engine, `owner-${turn}`)), ['test-sleep'], 10_000));
      if (!row) break;
      expect(row.state).toBe('processing');
      expect(row.attempts).toBe(1);
      claimed.push(row.id);
    }
    expect(claimed).toHaveLength(40);
    expect(new Set(claimed).size).toBe(40);
  });

  it("processes at most the plan's concurrentJobs task jobs of one user at once; the rest wait", async () => {
    const engine = open({ planOverrides: { starter: { concurrentJobs: 2 } } });
    const userId = (await engine.identity.createUserWithKey('starter', [])).user_id;
    const other = (await engine.identity.createUserWithKey('starter', [])).user_id;
    const mine = [(await enqueueSleep(engine, 0, userId)), (await enqueueSleep(engine, 0, userId)), (await enqueueSleep(engine, 0, userId))];
    const theirs = (await enqueueSleep(engine, 0, other));
    const first = (await engine.jobs.queue.claim((await hold(engine, 'w')), ['test-sleep'], 10_000))!;
    const second = (await engine.jobs.queue.claim((await hold(engine, 'w')), ['test-sleep'], 10_000))!;
    expect([first.id, second.id]).toEqual([mine[0]!.id, mine[1]!.id]);
    expect((await engine.jobs.queue.claim((await hold(engine, 'w')), ['test-sleep'], 10_000))!.id).toBe(theirs.id);
    expect((await engine.jobs.queue.claim((await hold(engine, 'w')), ['test-sleep'], 10_000))).toBeUndefined();
    (await engine.jobs.queue.finish(first.id, (await hold(engine, 'w')), { output: {} }));
    expect((await engine.jobs.queue.claim((await hold(engine, 'w')), ['test-sleep'], 10_000))!.id).toBe(mine[2]!.id);
  });

  it('claims the oldest waiting job first and only kinds it was asked for', async () => {
    const engine = open();
    const a = (await enqueueSleep(engine));
    const b = (await enqueueSleep(engine));
    expect((await engine.jobs.queue.claim((await hold(engine, 'w')), ['channel'], 1000))).toBeUndefined();
    expect((await engine.jobs.queue.claim((await hold(engine, 'w')), ['test-sleep'], 1000))!.id).toBe(a.id);
    expect((await engine.jobs.queue.claim((await hold(engine, 'w')), ['test-sleep'], 1000))!.id).toBe(b.id);
  });

  it('hands a job whose lease expired to the next claimer and fences the old owner out', async () => {
    const clock = new ManualClock();
    const engine = open({ clock });
    const job = (await enqueueSleep(engine));
    const queue = engine.jobs.queue;
    expect((await queue.claim((await hold(engine, 'dead')), ['test-sleep'], 1000))!.id).toBe(job.id);
    clock.advance(999);
    expect((await queue.claim((await hold(engine, 'other')), ['test-sleep'], 1000))).toBeUndefined();
    clock.advance(1);
    const retaken = (await queue.claim((await hold(engine, 'alive')), ['test-sleep'], 1000))!;
    expect(retaken).toMatchObject({ id: job.id, attempts: 2, state: 'processing', lease_owner: (await hold(engine, 'alive')) });
    expect((await queue.renewLease(job.id, (await hold(engine, 'dead')), 1000))).toBe(false);
    expect((await queue.finish(job.id, (await hold(engine, 'dead')), { output: { stale: true } }))).toBeUndefined();
    expect((await queue.finish(job.id, (await hold(engine, 'alive')), { output: { ok: true } }))).toMatchObject({ state: 'completed', result: '{"ok":true}' });
  });

  it('fails a job after its third abandoned attempt, saying why, instead of leaving it running', async () => {
    const clock = new ManualClock();
    const engine = open({ clock });
    const job = (await enqueueSleep(engine));
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await engine.jobs.queue.claim((await hold(engine, `worker-${attempt}`)), ['test-sleep'], 1000))!.attempts).toBe(attempt);
      clock.advance(1000);
    }
    expect((await engine.jobs.queue.claim((await hold(engine, 'worker-4')), ['test-sleep'], 1000))).toBeUndefined();
    const row = (await engine.jobs.queue.get(job.id))!;
    expect(row).toMatchObject({ state: 'failed', attempts: 3, error: abandonedMessage(3), lease_owner: null });
    expect(row.error).toMatch(/stopped responding 3 times .*gave up after 3 attempts/);
  });

  it('recovers an expired lease when a status is read, even with no worker around', async () => {
    const clock = new ManualClock();
    const engine = open({ clock });
    const job = (await enqueueSleep(engine));
    (await engine.jobs.queue.claim((await hold(engine, 'dead')), ['test-sleep'], 1000));
    clock.advance(5000);
    const row = await engine.jobs.wait(async () => (await engine.jobs.queue.get(job.id))!, 0);
    expect(row).toMatchObject({ state: 'pending', claimed_at: null, attempts: 1 });
  });

  it('returns a released job to the queue without spending an attempt', async () => {
    const engine = open();
    const job = (await enqueueSleep(engine));
    (await engine.jobs.queue.claim((await hold(engine, 'leaving')), ['test-sleep'], 1000));
    expect((await engine.jobs.queue.release(job.id, (await hold(engine, 'leaving'))))).toBe(true);
    expect((await engine.jobs.queue.get(job.id))).toMatchObject({ state: 'pending', attempts: 0, lease_owner: null });
  });
});

describe('worker', () => {
  it('renews the lease while a job runs longer than the lease', async () => {
    const engine = open({ jobTiming: { leaseMs: 150, heartbeatMs: 30 } });
    const job = (await enqueueSleep(engine, 500));
    const rival = open({ jobTiming: { leaseMs: 150 } }, engine.dataDir);
    const worker = new Worker(engine, { untilIdle: true, idleMs: 50 });
    const done = worker.run();
    await sleep(350);
    expect((await rival.jobs.queue.claim((await hold(rival, 'rival')), ['test-sleep'], 150))).toBeUndefined();
    await done;
    expect((await engine.jobs.queue.get(job.id))).toMatchObject({ state: 'completed', attempts: 1 });
    expect(runs.get(job.id)).toBe(1);
  });

  it("never takes a job from a worker running in this process, though its heartbeat lags a clock that jumped", async () => {
    const clock = new ManualClock();
    const engine = open({ clock });
    const job = await enqueueSleep(engine, 300);
    const worker = new Worker(engine, { untilIdle: true, idleMs: 50 });
    const done = worker.run();
    for (let tries = 0; (await engine.jobs.queue.get(job.id))!.state !== 'processing' && tries < 100; tries++) await sleep(10);
    // Beyond the hosts' staleness, within the lease: only the heartbeat row could call the holder dead.
    clock.advance(engine.jobs.timing.hostStaleMs + 1);
    expect(engine.jobs.timing.hostStaleMs + 1).toBeLessThan(engine.jobs.timing.leaseMs);
    expect(await engine.jobs.queue.recoverAbandoned()).toBe(0);
    expect(await engine.jobs.wait(async () => (await engine.jobs.queue.get(job.id))!, 0)).toMatchObject({ state: 'processing' });
    await done;
    expect(await engine.jobs.queue.get(job.id)).toMatchObject({ state: 'completed', attempts: 1 });
    // Another engine on the data dir (another process, as far as it knows) goes by the heartbeat.
    const other = await enqueueSleep(engine, 300);
    const again = new Worker(engine, { untilIdle: true, idleMs: 50 }).run();
    for (let tries = 0; (await engine.jobs.queue.get(other.id))!.state !== 'processing' && tries < 100; tries++) await sleep(10);
    clock.advance(engine.jobs.timing.hostStaleMs + 1);
    const elsewhere = open({ clock }, engine.dataDir);
    expect(await elsewhere.jobs.queue.recoverAbandoned()).toBe(1);
    await again;
  });

  it('gives its jobs back when stopped, so another worker finishes them', async () => {
    const engine = open();
    const job = (await enqueueSleep(engine, 10_000));
    const worker = new Worker(engine, {});
    const running = worker.run();
    await sleep(50);
    expect((await engine.jobs.queue.get(job.id))!.state).toBe('processing');
    await worker.stop();
    await running;
    expect((await engine.jobs.queue.get(job.id))).toMatchObject({ state: 'pending', attempts: 0 });
    expect((await engine.jobs.hosts.live())).toHaveLength(0);
  });

  it('with untilIdle, exits once nothing has waited for idleMs, and unregisters', async () => {
    const engine = open();
    const job = (await enqueueSleep(engine, 20));
    const started = Date.now();
    const stats = await new Worker(engine, { untilIdle: true, idleMs: 200, concurrency: 2 }).run();
    expect(stats).toEqual({ completed: 1, failed: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect((await engine.jobs.queue.get(job.id))!.state).toBe('completed');
    expect((await engine.jobs.hosts.live())).toHaveLength(0);
  });

  it('records a processor error as the job error', async () => {
    const engine = open();
    registerJobProcessor({ kind: 'test-broken', family: 'task', process: async () => { throw new Error('the disk is full'); } });
    const userId = (await engine.identity.createUserWithKey('starter', [])).user_id;
    const job = (await engine.jobs.enqueue({ kind: 'test-broken', userId, input: {}, publicId: 'broken-1' })).row;
    await new Worker(engine, { untilIdle: true, idleMs: 20 }).run();
    expect((await engine.jobs.queue.get(job.id))).toMatchObject({ state: 'failed', error: 'the disk is full' });
  });

  it('claims jobs of a kind registered after it started (features load on first use)', async () => {
    const engine = open();
    const worker = new Worker(engine, { untilIdle: true, idleMs: 300 });
    const done = worker.run();
    await sleep(50);
    registerJobProcessor({ kind: 'test-late', family: 'channel', process: async () => ({ late: true }) });
    const userId = (await engine.identity.createUserWithKey('starter', [])).user_id;
    const job = (await engine.jobs.enqueue({ kind: 'test-late', userId, input: {} })).row;
    await done;
    expect((await engine.jobs.queue.get(job.id))!.state).toBe('completed');
  });

  it('runs jobs of several kinds up to its concurrency at once', async () => {
    const engine = open();
    const userId = (await engine.identity.createUserWithKey('starter', [])).user_id;
    const jobs = await Promise.all(Array.from({ length: 4 }, () => enqueueSleep(engine, 300, userId)));
    const started = Date.now();
    await new Worker(engine, { untilIdle: true, idleMs: 20, concurrency: 4 }).run();
    expect(Date.now() - started).toBeLessThan(900);
    for (const job of jobs) expect((await engine.jobs.queue.get(job.id))!.state).toBe('completed');
  });
});

describe('making sure a worker runs (local CLI mode)', () => {
  it('starts one detached worker for several submits, and none while a live worker host exists', async () => {
    const clock = new ManualClock();
    const spawned: string[] = [];
    const engine = open({ clock, jobRunner: { mode: 'spawn', spawn: (dataDir) => spawned.push(dataDir) } });
    (await enqueueSleep(engine));
    (await enqueueSleep(engine));
    expect(spawned).toEqual([engine.dataDir]);
    // The reservation lapses if the worker never showed up; the next submit tries again.
    clock.advance(engine.jobs.timing.hostStaleMs);
    (await enqueueSleep(engine));
    expect(spawned).toHaveLength(2);
    clock.advance(engine.jobs.timing.hostStaleMs);
    (await engine.jobs.hosts.register('foreground'));
    (await enqueueSleep(engine));
    expect(spawned).toHaveLength(2);
  });

  it('runs a job only in a worker started with the settings of the command that submitted it', async () => {
    const spawned: string[] = [];
    const settings = () => ({ env: { TUBEKIT_ANALYSIS_BASE_URL: 'http://127.0.0.1:2' }, digest: 'settings-b' });
    const engine = open({ jobRunner: { mode: 'spawn', spawn: (dataDir) => spawned.push(dataDir), settings } });
    const queue = engine.jobs.queue;
    // A worker still alive from a command with other settings is not used: another one is started.
    const older = await engine.jobs.hosts.register('detached', { settingsDigest: 'settings-a' });
    const job = await enqueueSleep(engine);
    expect(spawned).toHaveLength(1);
    expect(engine.db.prepare('SELECT settings_digest FROM jobs WHERE id = ?').get(job.id)).toEqual({ settings_digest: 'settings-b' });
    expect(await queue.claim(`${older}/1`, ['test-sleep'], 60_000, 'settings-a')).toBeUndefined();
    expect(await queue.claim(`${older}/2`, ['test-sleep'], 60_000)).toBeUndefined();
    // Nothing it may run waits, so it can retire.
    expect(await queue.hasWaiting(['test-sleep'], undefined, 'settings-a')).toBe(false);
    expect(await queue.hasWaiting(['test-sleep'], undefined, 'settings-b')).toBe(true);
    const started = await engine.jobs.hosts.register('detached', { settingsDigest: 'settings-b' });
    expect((await queue.claim(`${started}/1`, ['test-sleep'], 60_000, 'settings-b'))!.id).toBe(job.id);
    // That worker is alive now: the next submit with the same settings starts none.
    await enqueueSleep(engine);
    expect(spawned).toHaveLength(1);
    // A job submitted without settings (serve, a library engine) is any worker's.
    const plain = open({}, engine.dataDir);
    const anyones = await enqueueSleep(plain);
    expect((await queue.claim(`${older}/3`, ['test-sleep'], 60_000, 'settings-a'))!.id).toBe(anyones.id);
  });

  it('does not spawn for an idempotent replay', async () => {
    const spawned: string[] = [];
    const engine = open({ jobRunner: { mode: 'spawn', spawn: (dataDir) => spawned.push(dataDir) } });
    const userId = (await engine.identity.createUserWithKey('starter', [])).user_id;
    (await engine.jobs.hosts.register('foreground'));
    (await engine.jobs.enqueue({ kind: 'test-sleep', userId, input: { ms: 0 }, publicId: 'k1', idempotencyKey: 'k' }));
    for (const host of await engine.jobs.hosts.live()) await engine.jobs.hosts.unregister(host.id);
    const again = (await engine.jobs.enqueue({ kind: 'test-sleep', userId, input: { ms: 0 }, publicId: 'k2', idempotencyKey: 'k' }));
    expect(again.existing).toBe(true);
    expect(spawned).toHaveLength(0);
  });

  it('requeues a job whose holder is known dead without waiting out its lease', async () => {
    const clock = new ManualClock();
    const engine = open({ clock });
    const job = (await enqueueSleep(engine));
    const queue = engine.jobs.queue;
    // A host row left by a process that no longer exists (a killed worker cannot unregister).
    const dead = (await engine.jobs.hosts.register('detached'));
    engine.db.prepare('UPDATE job_workers SET pid = ? WHERE id = ?').run(2 ** 22 + 1, dead);
    expect((await queue.claim(`${dead}/1`, ['test-sleep'], 60_000))!.id).toBe(job.id);
    expect((await queue.recoverAbandoned())).toBe(1);
    expect((await queue.get(job.id))).toMatchObject({ state: 'pending', lease_owner: null, attempts: 1 });
    // A stale heartbeat gives the holder away too, and a gone row.
    const silent = (await engine.jobs.hosts.register('detached'));
    expect((await queue.claim(`${silent}/1`, ['test-sleep'], 60_000))!.id).toBe(job.id);
    expect((await queue.recoverAbandoned())).toBe(0);
    clock.advance(engine.jobs.timing.hostStaleMs);
    expect((await queue.recoverAbandoned())).toBe(1);
    expect((await queue.claim('no-such-host/1', ['test-sleep'], 60_000))!.id).toBe(job.id);
    expect((await queue.recoverAbandoned())).toBe(1);
  });

  it.runIf(process.platform === 'linux')('requeues at once a job whose holder was killed and is a zombie nobody reaped', async () => {
    // sh starts a sleep, prints its pid, then becomes a sleep itself: a parent that never reaps.
    const parent = spawn('sh', ['-c', 'sleep 300 & echo $!; exec sleep 300'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
      process.kill(pid, 'SIGKILL');
      const state = () => fs.readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]![0];
      for (let tries = 0; state() !== 'Z' && tries < 100; tries++) await sleep(20);
      expect(state()).toBe('Z');
      // The premise: signal 0 still calls it alive.
      expect(process.kill(pid, 0)).toBe(true);
      expect(processAlive(pid)).toBe(false);

      const engine = open();
      const job = (await enqueueSleep(engine));
      const zombie = (await engine.jobs.hosts.register('detached'));
      engine.db.prepare('UPDATE job_workers SET pid = ? WHERE id = ?').run(pid, zombie);
      expect((await engine.jobs.queue.claim(`${zombie}/1`, ['test-sleep'], 60_000))!.id).toBe(job.id);
      // Its heartbeat is fresh and its lease a minute long: only the process state gives it away.
      expect((await engine.jobs.queue.recoverAbandoned())).toBe(1);
      expect((await engine.jobs.queue.get(job.id))).toMatchObject({ state: 'pending', lease_owner: null });
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('judges a holder on another machine by its heartbeat alone: its pid means nothing here', async () => {
    const engine = open();
    const job = (await enqueueSleep(engine));
    const elsewhere = 'detached-4194305-abcdef12@another-machine';
    const now = engine.clock.now();
    engine.db.prepare('INSERT INTO job_workers (id, pid, mode, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)').run(elsewhere, 2 ** 22 + 1, 'detached', now, now);
    expect((await engine.jobs.queue.claim(`${elsewhere}/1`, ['test-sleep'], 60_000))!.id).toBe(job.id);
    expect((await engine.jobs.queue.recoverAbandoned())).toBe(0);
    expect((await engine.jobs.queue.get(job.id))).toMatchObject({ state: 'processing' });
  });

  it('finishes a channel job and claims the next waiting one in one transaction', async () => {
    const engine = open();
    const userId = (await engine.identity.createUserWithKey('ultimate', [])).user_id;
    const channelJob = async () => (await engine.jobs.enqueue({ kind: 'test-channel', userId, input: {} })).row;
    const [first, second] = [await channelJob(), await channelJob()];
    expect((await engine.jobs.queue.claim(await hold(engine, 'a'), ['test-channel'], 10_000))!.id).toBe(first.id);
    const finished: number[] = [];
    await engine.jobs.queue.subscribeFinished();
    engine.jobs.queue.events.on('finished', (id: number) => finished.push(id));
    const found = await engine.jobs.queue.finishAndClaim(first.id, await hold(engine, 'a'), { error: 'it broke' }, { owner: await hold(engine, 'b'), kinds: ['test-channel'], leaseMs: 10_000 });
    expect(found.finished).toMatchObject({ id: first.id, state: 'failed', error: 'it broke' });
    expect(found.claimed).toMatchObject({ id: second.id, state: 'running', lease_owner: await hold(engine, 'b') });
    expect(finished).toEqual([first.id]);
    const last = await engine.jobs.queue.finishAndClaim(second.id, await hold(engine, 'b'), { output: {} }, { owner: await hold(engine, 'c'), kinds: ['test-channel'], leaseMs: 10_000 });
    expect(last.finished).toMatchObject({ id: second.id, state: 'completed' });
    expect(last.claimed).toBeUndefined();
  });

  it('lets an idle worker retire only when nothing waits', async () => {
    const engine = open();
    const host = (await engine.jobs.hosts.register('detached'));
    (await enqueueSleep(engine));
    expect((await engine.jobs.hosts.retireIfIdle(host, (tx) => engine.jobs.queue.hasWaiting(['test-sleep'], tx)))).toBe(false);
    expect((await engine.jobs.hosts.live())).toHaveLength(1);
    (await engine.jobs.queue.claim(`${host}/1`, ['test-sleep'], 1000));
    expect((await engine.jobs.hosts.retireIfIdle(host, (tx) => engine.jobs.queue.hasWaiting(['test-sleep'], tx)))).toBe(true);
    expect((await engine.jobs.hosts.live())).toHaveLength(0);
  });
});
