/**
 * The job queue: submit-to-completed latency with zero simulated work (in-process and over serve),
 * long-poll wake-up delay after completion (worker in this process and in another process), and
 * queue throughput with 1, 2 and 4 worker processes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import type { Service } from '../src/core/service.js';
import { Engine, type EngineOptions } from '../src/engine/engine.js';
import { setWorkDuration, setWorkSetting } from '../src/engine/simulated-work.js';
import { LocalService } from '../src/engine/local-service.js';
import { RemoteService } from '../src/remote/remote-service.js';
import { startServer } from '../src/server/serve.js';
import { benchWorld } from './sample-world.js';
import { median, timeMedian, type BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');
const RUNS = 30;

export async function jobRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  rows.push(...(await latencyRows()));
  rows.push(...(await crossProcessWakeUp()));
  rows.push(...(await throughputRows(0, 400)));
  rows.push(...(await throughputRows(20, 120)));
  rows.push(...(await generationBesideChannelJobs()));
  return rows;
}

interface Bench {
  engine: Engine;
  dataDir: string;
  channel: string;
  close(): void;
}

async function openBench(options: Partial<EngineOptions> = {}, workMs = 0): Promise<Bench> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-jobs-'));
  const engine = Engine.open({ dataDir, planOverrides: { ultimate: { processChannelPerMinute: 1_000_000 } }, ...options });
  setWorkDuration(engine.settings, { min_ms: workMs, max_ms: workMs });
  const channel = (await benchWorld(engine)).sampleChannels(1)[0]!.channel_id;
  return {
    engine,
    dataDir,
    channel,
    close() {
      engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function submitAndWait(service: Service, channel: string) {
  const { job_id } = await service.call('channels.process', { channel, type: 'longform' });
  const done = await service.call('channels.processStatus', { job_id, wait_seconds: 30 });
  if (done.status !== 'completed') throw new Error(`job ${job_id} ended ${done.status}`);
  return done;
}

/** Milliseconds between a job's recorded completion and the held request answering. */
async function wakeUpDelay(service: Service, channel: string): Promise<number> {
  const delays: number[] = [];
  for (let run = 0; run < 15; run += 1) {
    const done = await submitAndWait(service, channel);
    delays.push(Date.now() - Date.parse(done.completed_at!));
  }
  return median(delays);
}

async function latencyRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const bench = await openBench();
  const server = await startServer({ engine: bench.engine, port: 0 });
  const key = (await bench.engine.identity.createUserWithKey('ultimate', [])).key;
  const local = new LocalService(bench.engine, key);
  const remote = new RemoteService({ baseUrl: server.url, apiKey: key, maxRetries: 0 });
  try {
    for (const [where, service] of [['in-process', local], ['over serve', remote]] as const) {
      await submitAndWait(service, bench.channel); // warm up
      const health = await timeMedian(RUNS, () => service.call('health', {}));
      const latency = await timeMedian(RUNS, () => submitAndWait(service, bench.channel));
      rows.push({
        name: `jobs ${where}: submit → completed (zero work)`,
        value: latency,
        unit: 'ms',
        baseline: { name: 'one health call', value: health },
      });
    }
    const slow = await openBench({}, 150);
    try {
      const slowLocal = new LocalService(slow.engine, (await slow.engine.identity.createUserWithKey('ultimate', [])).key);
      rows.push({ name: 'long-poll wake-up after completion (worker in this process)', value: await wakeUpDelay(slowLocal, slow.channel), unit: 'ms', budget: '< 100 ms' });
    } finally {
      slow.close();
    }
  } finally {
    await remote.close();
    await server.close();
    bench.close();
  }
  return rows;
}

/** The local CLI case: the worker is another process, so the waiter learns of completion by polling. */
async function crossProcessWakeUp(): Promise<BenchRow[]> {
  const bench = await openBench({ jobRunner: { mode: 'none' } }, 150);
  const worker = execa('node', [BIN, 'engine', 'worker', '--data-dir', bench.dataDir], { reject: false });
  try {
    await waitForWorkerHost(bench.engine);
    const service = new LocalService(bench.engine, (await bench.engine.identity.createUserWithKey('ultimate', [])).key);
    const delay = await wakeUpDelay(service, bench.channel);
    return [{ name: 'long-poll wake-up after completion (worker in another process)', value: delay, unit: 'ms', budget: '< 100 ms' }];
  } finally {
    worker.kill('SIGTERM');
    await worker;
    bench.close();
  }
}

/** Zero work shows the queue's own cost (one SQLite writer at a time); 20 ms of work shows scaling. */
async function throughputRows(workMs: number, jobs: number): Promise<BenchRow[]> {
  const rates: Array<[number, number]> = [];
  for (const workers of [1, 2, 4]) {
    const bench = await openBench({ jobRunner: { mode: 'none' } }, workMs);
    try {
      const userId = (await bench.engine.identity.createUserWithKey('ultimate', [])).user_id;
      for (let index = 0; index < jobs; index += 1) {
        await bench.engine.jobs.enqueue({ kind: 'channel', userId, input: { channel_input: bench.channel, type: 'longform', channel_id: bench.channel } });
      }
      const children: ResultPromise[] = [];
      for (let index = 0; index < workers; index += 1) {
        children.push(execa('node', [BIN, 'engine', 'worker', '--until-idle', '--idle', '0', '--concurrency', '1', '--data-dir', bench.dataDir], { reject: false }));
      }
      await Promise.all(children);
      // Measured from the first claim to the last completion, so process start-up is left out.
      const span = bench.engine.db
        .prepare<[], { first: number; last: number; done: number }>(
          `SELECT MIN(claimed_at) AS first, MAX(finished_at) AS last, SUM(state = 'completed') AS done FROM jobs`,
        )
        .get()!;
      if (span.done !== jobs) throw new Error(`${jobs - span.done} jobs did not complete with ${workers} workers`);
      rates.push([workers, (jobs / Math.max(1, span.last - span.first)) * 1000]);
    } finally {
      bench.close();
    }
  }
  const single = rates[0]![1];
  return rates.map(([workers, rate]) => ({
    name: `queue throughput, ${workers} worker process${workers === 1 ? '' : 'es'} (${workMs ? `${workMs} ms work` : 'zero work'})`,
    value: rate,
    unit: 'jobs/s',
    baseline: workers === 1 ? undefined : { name: '1 worker', value: single },
  }));
}

async function waitForWorkerHost(engine: Engine): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await engine.jobs.hosts.live()).length === 0) {
    if (Date.now() > deadline) throw new Error('the worker process did not start');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The local CLI's case: one detached worker (default flags) busy with two realistic channel jobs
 * (30 s to 2 min each), and a short generation submitted meanwhile. It must not queue behind them.
 */
export async function generationBesideChannelJobs(): Promise<BenchRow[]> {
  const bench = await openBench({ jobRunner: { mode: 'none' } });
  setWorkSetting(bench.engine.settings, { preset: 'realistic' });
  const worker = execa('node', [BIN, 'engine', 'worker', '--data-dir', bench.dataDir], { reject: false });
  try {
    await waitForWorkerHost(bench.engine);
    const service = new LocalService(bench.engine, (await bench.engine.identity.createUserWithKey('ultimate', ['generations'])).key);
    const generate = async () => {
      const { job_id } = await service.call('generate', { script: 'A short line, spoken while the channel jobs run.', voice_id: 'espeak-en-us' });
      const done = await service.call('jobs.status', { job_id, wait_seconds: 30 });
      if (done.status !== 'completed') throw new Error(`generation ${job_id} ended ${done.status}`);
    };
    await generate(); // warm up: the worker loads eSpeak once
    const alone = await timeMedian(7, generate);
    const channels = [bench.channel, (await benchWorld(bench.engine)).sampleChannels(2)[1]!.channel_id];
    const jobs = await Promise.all(channels.map((channel) => service.call('channels.process', { channel, type: 'longform' })));
    const running = async () => (await Promise.all(jobs.map((job) => bench.engine.jobs.queue.get(job.job_id)))).every((row) => row?.state === 'running');
    for (const deadline = Date.now() + 10_000; !(await running()); ) {
      if (Date.now() > deadline) throw new Error('the channel jobs did not start');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const beside = await timeMedian(7, generate);
    if (!running()) throw new Error('the channel jobs finished before the measurement did');
    return [
      {
        name: 'generate while 2 channel jobs run (one local worker, default flags)',
        value: beside,
        unit: 'ms',
        baseline: { name: 'generate alone', value: alone },
        budget: '≤ 1.5×',
      },
    ];
  } finally {
    worker.kill('SIGTERM');
    await worker;
    bench.close();
  }
}
