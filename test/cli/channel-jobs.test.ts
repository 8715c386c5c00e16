/**
 * process-channel, job and engine worker on the built binary: local submits that finish on their
 * own (a detached worker), --watch on a pipe, exit codes, and real worker processes racing for
 * jobs or being killed in the middle of one.
 */
import fs from 'node:fs';
import type { JobRow } from '../../src/engine/jobs/job-row.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { setWorkDuration } from '../../src/engine/simulated-work.js';
import { JOB_TIMING_SETTING } from '../../src/engine/jobs/job-system.js';
import { cliSandbox, startServe, type CliSandbox } from '../support/cli.js';
// The test enqueues channel jobs itself, so the processor must be registered in this process.
import '../../src/engine/features/channels/processor.js';

interface Sandbox {
  cli: CliSandbox;
  engine: Engine;
  handle: string;
  channelId: string;
}

async function openSandbox(): Promise<Sandbox> {
  const cli = cliSandbox();
  const engine = Engine.open({ dataDir: cli.dataDir, jobRunner: { mode: 'none' } });
  await engine.defaultKey();
  const channel = (await engine.platform()).sampleChannels(1)[0]!;
  return { cli, engine, handle: channel.handle, channelId: channel.channel_id };
}

/** Stops the detached workers the CLI started for this data dir (they would idle on for 15 s). */
function closeSandbox(sandbox: Sandbox): void {
  const hosts = sandbox.engine.db.prepare<[], { pid: number }>('SELECT DISTINCT pid FROM job_workers').all();
  for (const { pid } of hosts) {
    if (pid !== process.pid) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
  sandbox.engine.close();
  sandbox.cli.cleanup();
}

function setWork(sandbox: Sandbox, ms: number): void {
  setWorkDuration(sandbox.engine.settings, { min_ms: ms, max_ms: ms });
}

function jobRow(sandbox: Sandbox, id: number) {
  return sandbox.engine.db.prepare<[number], JobRow>('SELECT * FROM jobs WHERE id = ?').get(id)!;
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** Queues a channel job for the default local user without starting any worker. */
async function enqueueChannelJob(sandbox: Sandbox): Promise<number> {
  const user = await sandbox.engine.authenticate(await sandbox.engine.defaultKey());
  const { row } = await sandbox.engine.jobs.enqueue({
    kind: 'channel',
    userId: user.userId,
    input: { channel_input: sandbox.handle, type: 'longform', channel_id: sandbox.channelId },
  });
  return row.id;
}

describe('tubekit process-channel (built binary)', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await openSandbox();
  });
  afterAll(() => closeSandbox(sandbox));

  it('submits without --watch, returns at once, and the job finishes on its own', async () => {
    setWork(sandbox, 300);
    const submitted = await sandbox.cli.run(['process-channel', sandbox.handle, '--type', 'longform', '--json']);
    expect(submitted.exitCode).toBe(0);
    const body = JSON.parse(submitted.stdout);
    expect(body).toMatchObject({ success: true, status: 'queued', type: 'longform', resolved_channel_id: sandbox.channelId });
    // Nobody watches: the detached worker the submit started runs it.
    await until(() => jobRow(sandbox, body.job_id).state === 'completed', 15_000, 'the job to complete');
    const status = await sandbox.cli.run(['process-channel', 'status', String(body.job_id), '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ id: body.job_id, status: 'completed', eligible: expect.any(Boolean) });
    const hosts = await sandbox.engine.jobs.hosts.live();
    expect(hosts.map((host) => host.mode)).toContain('detached');
  });

  it('prints readable key/value lines without --json, and how to follow the job', async () => {
    const result = await sandbox.cli.run(['process-channel', sandbox.channelId, '--type', 'shorts']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^id\t\d+\nstatus\tqueued\ntype\tshorts\n/);
    expect(result.stderr).toMatch(/Follow it with: tubekit process-channel status \d+ --watch/);
  });

  it('--watch prints exactly the final API body with --json and one line per state on a pipe', async () => {
    setWork(sandbox, 1_500);
    const result = await sandbox.cli.run(['process-channel', sandbox.handle, '--type', 'longform', '--watch', '--json']);
    expect(result.exitCode).toBe(0);
    const body = JSON.parse(result.stdout);
    expect(body).toMatchObject({ success: true, status: 'completed', channel_input: sandbox.handle });
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stderr.trim().split('\n')).toEqual([`Job ${body.id}: queued`, `Job ${body.id}: running`, `Job ${body.id}: completed`]);
  });

  it('--quiet silences the progress lines', async () => {
    setWork(sandbox, 0);
    const result = await sandbox.cli.run(['process-channel', sandbox.handle, '--type', 'longform', '--watch', '--quiet']);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/status\tcompleted/);
  });

  it('exits 1 with the job error when the job fails, still printing the body', async () => {
    setWork(sandbox, 0);
    expect((await sandbox.cli.run(['engine', 'faults', 'set', 'channel-job-fail'])).exitCode).toBe(0);
    try {
      const result = await sandbox.cli.run(['process-channel', sandbox.handle, '--type', 'longform', '--watch', '--json']);
      expect(result.exitCode).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ status: 'failed', error: expect.stringMatching(/channel-job-fail/) });
      const errorLine = JSON.parse(result.stderr.trim().split('\n').at(-1)!);
      expect(errorLine.error).toMatchObject({ code: 'job_failed', message: expect.stringMatching(/^Job \d+ failed: /) });
    } finally {
      await sandbox.cli.run(['engine', 'faults', 'clear']);
    }
  });

  it('exits 10 when --timeout passes, saying how to resume, and leaves the job running', async () => {
    setWork(sandbox, 4_000);
    const result = await sandbox.cli.run(['process-channel', sandbox.handle, '--type', 'longform', '--watch', '--timeout', '1.5']);
    expect(result.exitCode).toBe(10);
    expect(result.stderr).toMatch(/Resume with: tubekit process-channel status (\d+) --watch/);
    expect(result.stderr).toMatch(/is still (queued|running) after 1.5s; stopped waiting \(the job keeps running\)/);
    const id = Number(/status (\d+) --watch/.exec(result.stderr)![1]);
    expect(['queued', 'running']).toContain(jobRow(sandbox, id).state);
  });

  it('stops watching on Ctrl-C with exit 3 and a resume hint; the job keeps going', async () => {
    setWork(sandbox, 4_000);
    const child = sandbox.cli.spawn(['process-channel', sandbox.handle, '--type', 'longform', '--watch']);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await until(() => /: running/.test(stderr), 10_000, 'the watch to show running');
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(3);
    expect(stderr).toMatch(/Resume with: tubekit process-channel status \d+ --watch/);
    expect(stderr).toMatch(/Stopped watching Job \d+; the job keeps running/);
    const id = Number(/Job (\d+):/.exec(stderr)![1]);
    expect(jobRow(sandbox, id).state).toBe('running');
  });

  it('status --wait holds until the job finishes; status --watch follows it', async () => {
    setWork(sandbox, 800);
    const first = JSON.parse((await sandbox.cli.run(['process-channel', sandbox.handle, '--type', 'longform', '--json'])).stdout);
    const waited = await sandbox.cli.run(['process-channel', 'status', String(first.job_id), '--wait', '10', '--json']);
    expect(JSON.parse(waited.stdout).status).toBe('completed');
    const second = JSON.parse((await sandbox.cli.run(['process-channel', sandbox.handle, '--type', 'longform', '--json'])).stdout);
    const watched = await sandbox.cli.run(['process-channel', 'status', String(second.job_id), '--watch', '--json']);
    expect(watched.exitCode).toBe(0);
    expect(JSON.parse(watched.stdout)).toMatchObject({ id: second.job_id, status: 'completed' });
  });

  it('returns the same job for a repeated --idempotency-key', async () => {
    const args = ['process-channel', sandbox.handle, '--type', 'longform', '--idempotency-key', 'cli-once', '--json'];
    const first = JSON.parse((await sandbox.cli.run(args)).stdout);
    const again = JSON.parse((await sandbox.cli.run(args)).stdout);
    expect(again).toMatchObject({ job_id: first.job_id, idempotent: true });
  });

  it('treats bad arguments as usage errors (exit 2) before any call', async () => {
    const before = sandbox.engine.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM jobs').get()!.n;
    const cases: Array<[string[], RegExp]> = [
      [['process-channel', sandbox.handle], /--type is required/],
      [['process-channel', sandbox.handle, '--type', 'auto'], /Allowed choices are shorts, longform/],
      [['process-channel', sandbox.handle, '--type', 'shorts', '--watch', '--timeout', 'soon'], /--timeout must be a positive number/],
      [['process-channel', sandbox.handle, '--type', 'shorts', '--timeout', '30'], /--timeout only applies while waiting: add --watch/],
      [['process-channel', 'status', 'abc'], /Job id must be a positive whole number/],
      [['process-channel', 'status', '1', '--wait', 'x'], /--wait must be a whole number/],
      [['process-channel', 'not a channel', '--type', 'shorts'], /is not a channel or video/],
    ];
    for (const [args, message] of cases) {
      const result = await sandbox.cli.run(args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    }
    expect(sandbox.engine.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM jobs').get()!.n).toBe(before);
  });

  it('exits 6 for a job that is not the caller\'s or does not exist', async () => {
    expect((await sandbox.cli.run(['process-channel', 'status', '999999'])).exitCode).toBe(6);
    expect((await sandbox.cli.run(['job', '3f1c2a9e-7b4d-4e2a-9c61-0d5b8e7f6a12'])).exitCode).toBe(6);
    // Ids of earlier versions are still job ids (they may be in the data dir).
    expect((await sandbox.cli.run(['job', 'gen_Zx9-abc'])).exitCode).toBe(6);
  });

  it('refuses a job id of neither shape (UUID, or an earlier gen_/ana_ id) with exit 2 before any call', async () => {
    const result = await sandbox.cli.run(['job', 'no-such-job']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('error: "no-such-job" is not a job id: generation and analysis jobs have UUIDs');
    expect(result.stderr).toContain('tubekit jobs list');
  });

  it('lists, sets and clears faults, and sets durations', async () => {
    expect((await sandbox.cli.run(['engine', 'faults', 'set', 'no-such-fault'])).exitCode).toBe(2);
    await sandbox.cli.run(['engine', 'faults', 'set', 'channel-job-fail']);
    const listed = JSON.parse((await sandbox.cli.run(['engine', 'faults', 'list', '--json'])).stdout);
    expect(listed.active).toEqual(['channel-job-fail']);
    await sandbox.cli.run(['engine', 'faults', 'clear', 'channel-job-fail']);
    expect(JSON.parse((await sandbox.cli.run(['engine', 'faults', 'list', '--json'])).stdout).active).toEqual([]);
    expect((await sandbox.cli.run(['engine', 'durations', 'realistic'])).stdout).toContain('channel-job\t30000-120000 ms\n');
    expect((await sandbox.cli.run(['engine', 'durations', '5-1'])).exitCode).toBe(2);
    expect((await sandbox.cli.run(['engine', 'durations', 'instant'])).stdout).toContain('channel-job\t0-0 ms\n');
    expect(JSON.parse((await sandbox.cli.run(['engine', 'durations', '700', '--json'])).stdout)).toMatchObject({ preset: null, activities: { 'channel-job': { min_ms: 700, max_ms: 700 } } });
  });

  it('watches a job on a remote service (serve) the same way', async () => {
    setWork(sandbox, 300);
    const server = await startServe(sandbox.cli);
    try {
      const result = await sandbox.cli.run(['--base-url', server.url, 'process-channel', sandbox.handle, '--type', 'shorts', '--watch', '--json'], {
        env: { TUBEKIT_API_KEY: await sandbox.engine.defaultKey() },
      });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed', type: 'shorts' });
    } finally {
      await server.stop();
    }
  });
});

describe('tubekit job (built binary)', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await openSandbox();
  });
  afterAll(() => closeSandbox(sandbox));

  it('watches a generation job and saves its audio with -o', async () => {
    const voice = (await sandbox.cli.run(['voices', 'list'])).stdout.split('\n')[0]!.split('\t')[0]!;
    const submitted = await sandbox.cli.run(['--json', 'generate', 'Watching a job from the command line.', '--voice', voice]);
    expect(submitted.exitCode).toBe(0);
    const jobId = JSON.parse(submitted.stdout).job_id as string;
    const target = `${sandbox.cli.dataDir}/speech.mp3`;
    const watched = await sandbox.cli.run(['job', jobId, '--watch', '--json', '-o', target]);
    expect(watched.exitCode).toBe(0);
    expect(JSON.parse(watched.stdout)).toMatchObject({ job_id: jobId, type: 'generation', status: 'completed' });
    expect(watched.stderr).toMatch(new RegExp(`Job ${jobId}: completed`));
    const audio = fs.readFileSync(target);
    expect(audio.length).toBeGreaterThan(1000);
    expect(audio[0] === 0xff || audio.subarray(0, 3).toString() === 'ID3').toBe(true);
  });
});

describe('job worker processes', () => {
  let sandbox: Sandbox;
  afterEach(() => closeSandbox(sandbox));

  it('two worker processes racing over one queue run every job exactly once', async () => {
    sandbox = await openSandbox();
    setWork(sandbox, 0);
    const ids = await Promise.all(Array.from({ length: 60 }, () => enqueueChannelJob(sandbox)));
    const workers = [0, 1].map(() => sandbox.cli.spawn(['engine', 'worker', '--until-idle', '--idle', '1', '--concurrency', '2']));
    const results = await Promise.all(workers);
    for (const result of results) expect(result.exitCode).toBe(0);
    const claims = results.map((result) => (String(result.stderr).match(/ claimed, attempt 1/g) ?? []).length);
    expect(claims[0]! + claims[1]!).toBe(60);
    for (const id of ids) expect(jobRow(sandbox, id)).toMatchObject({ state: 'completed', attempts: 1 });
  });

  it('a job whose worker is killed mid-run is taken up again and completes', async () => {
    sandbox = await openSandbox();
    sandbox.engine.settings.set(JOB_TIMING_SETTING, { leaseMs: 1_500, hostHeartbeatMs: 200, hostStaleMs: 1_000 });
    setWork(sandbox, 2_500);
    const id = await enqueueChannelJob(sandbox);
    const doomed = sandbox.cli.spawn(['engine', 'worker']);
    await until(() => jobRow(sandbox, id).state === 'running', 10_000, 'the worker to claim the job');
    doomed.kill('SIGKILL');
    await doomed;
    expect(jobRow(sandbox, id).state).toBe('running');
    // Watching it is enough: the expired lease is recovered and a new worker is started.
    const watched = await sandbox.cli.run(['process-channel', 'status', String(id), '--watch', '--timeout', '20', '--json']);
    expect(watched.exitCode).toBe(0);
    expect(JSON.parse(watched.stdout)).toMatchObject({ status: 'completed' });
    expect(jobRow(sandbox, id).attempts).toBe(2);
  });

  it('shows a killed worker\'s job queued again at once, without waiting out its lease', async () => {
    sandbox = await openSandbox();
    // The default 15 s lease and 5 s host staleness: only the dead process gives the holder away.
    setWork(sandbox, 30_000);
    const id = await enqueueChannelJob(sandbox);
    const doomed = sandbox.cli.spawn(['engine', 'worker']);
    await until(() => jobRow(sandbox, id).state === 'running', 10_000, 'the worker to claim the job');
    const claimedAt = Date.now();
    doomed.kill('SIGKILL');
    await doomed;
    const status = await sandbox.cli.run(['process-channel', 'status', String(id), '--json']);
    expect(Date.now() - claimedAt).toBeLessThan(5_000);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'queued' });
    expect(jobRow(sandbox, id).attempts).toBe(1);
  });

  it('a job whose workers keep dying fails with an error that says so', async () => {
    sandbox = await openSandbox();
    sandbox.engine.settings.set(JOB_TIMING_SETTING, { leaseMs: 500, maxAttempts: 1, hostHeartbeatMs: 100, hostStaleMs: 400 });
    setWork(sandbox, 5_000);
    const id = await enqueueChannelJob(sandbox);
    const doomed = sandbox.cli.spawn(['engine', 'worker']);
    await until(() => jobRow(sandbox, id).state === 'running', 10_000, 'the worker to claim the job');
    doomed.kill('SIGKILL');
    await doomed;
    await sleep(600);
    const status = await sandbox.cli.run(['process-channel', 'status', String(id), '--json']);
    expect(status.exitCode).toBe(1);
    expect(JSON.parse(status.stdout)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/stopped responding 1 time .*gave up after 1 attempt/),
    });
  });
});
