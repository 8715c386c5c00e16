import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { registerJobProcessor } from '../../../src/engine/jobs/registry.js';
import { Worker } from '../../../src/engine/jobs/worker.js';
import { tempDataDir } from '../../support/engines.js';

/** A slow channel-family kind and a quick task-family kind; each sleeps `ms`. */
for (const [kind, family] of [['test-channel', 'channel'], ['test-task', 'task']] as const) {
  registerJobProcessor<{ ms: number }, object>({
    kind,
    family,
    async process(job, { signal }) {
      await sleep(job.input.ms, undefined, { signal });
      return {};
    },
  });
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function open(): Engine {
  const dataDir = tempDataDir();
  const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' } });
  cleanups.push(() => {
    engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return engine;
}

function startWorker(engine: Engine, concurrency: number): Worker {
  const worker = new Worker(engine, { concurrency, mode: 'foreground' });
  void worker.run();
  cleanups.unshift(() => worker.stop());
  return worker;
}

const enqueue = async (engine: Engine, kind: string, userId: number, ms: number) =>
  (await engine.jobs.enqueue({ kind, userId, input: { ms }, publicId: kind === 'test-task' ? `t-${Math.random().toString(36).slice(2)}` : undefined })).row;

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

describe('worker slots', () => {
  it('runs a short task job at once while every channel slot is busy with a long job', async () => {
    const engine = open();
    const userId = (await engine.identity.createUserWithKey('ultimate', [])).user_id;
    const channels = [(await enqueue(engine, 'test-channel', userId, 5_000)), (await enqueue(engine, 'test-channel', userId, 5_000))];
    startWorker(engine, 2);
    expect(await until(async () => (await Promise.all(channels.map((job) => engine.jobs.queue.get(job.id)))).every((row) => row!.state === 'running'), 2_000)).toBe(true);
    const task = (await enqueue(engine, 'test-task', userId, 50));
    expect(await until(async () => (await engine.jobs.queue.get(task.id))!.state === 'completed', 1_500)).toBe(true);
    expect((await Promise.all(channels.map((job) => engine.jobs.queue.get(job.id)))).map((row) => row!.state)).toEqual(['running', 'running']);
  });

  it("runs as many of a user's task jobs at once as the plan allows, whatever the channel slots", async () => {
    const engine = open();
    const userId = (await engine.identity.createUserWithKey('ultimate', [])).user_id;
    const cap = engine.planLimits('ultimate').concurrentJobs;
    for (let index = 0; index < cap + 1; index += 1) (await enqueue(engine, 'test-task', userId, 3_000));
    startWorker(engine, 1);
    const processing = () => engine.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM jobs WHERE state = 'processing'").get()!.n;
    expect(await until(() => processing() === cap, 2_000)).toBe(true);
    await sleep(200);
    expect(processing()).toBe(cap); // the one over the cap still waits
  });
});
