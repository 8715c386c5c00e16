/**
 * `GET /api/job-status/:job_id` on the shared queue, with a task-family kind whose work the test
 * controls (generation and analysis add their own fields through `describe`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { registerJobProcessor } from '../../src/engine/jobs/registry.js';
import { describeEachEngine, failure, type EngineHarness } from '../support/engines.js';

interface EchoInput {
  text: string;
  ms: number;
  fail?: boolean;
  /** Holds the job after its sleep until the test opens this gate (no race with a slow machine). */
  gate?: string;
}

const gates = new Map<string, () => void>();
const gateOpened = new Map<string, Promise<void>>();
function gate(name: string): Promise<void> {
  if (!gateOpened.has(name)) gateOpened.set(name, new Promise<void>((resolve) => gates.set(name, resolve)));
  return gateOpened.get(name)!;
}
const openGate = (name: string) => {
  void gate(name);
  gates.get(name)!();
};

registerJobProcessor<EchoInput, { echoed: string }>({
  kind: 'test-echo',
  family: 'task',
  async process(job, { signal }) {
    await sleep(job.input.ms, undefined, { signal });
    if (job.input.gate) await gate(job.input.gate);
    if (job.input.fail) throw new Error(`could not echo "${job.input.text}"`);
    return { echoed: job.input.text.toUpperCase() };
  },
  describe(job) {
    return job.output ? { analysis_text: job.output.echoed } : { title: job.input.text };
  },
});

let counter = 0;
async function submit(harness: EngineHarness, userKey: string, input: EchoInput): Promise<string> {
  const user = (await harness.engine.authenticate(userKey));
  const publicId = `echo-${++counter}-${harness.kind}`;
  (await harness.engine.jobs.enqueue({ kind: 'test-echo', userId: user.userId, input, publicId }));
  return publicId;
}

// Its answers have type "test-echo", which the published enum rightly lacks: no strict response
// check here (the generation and analysis suites check job-status answers of the real kinds).
describeEachEngine('task job status', (get) => {
  const newUser = async () => {
    const { key } = (await get().engine.identity.createUserWithKey('professional', ['generations']));
    return { key, service: get().withKey(key) };
  };

  it('goes pending/processing → completed with started_at, completed_at and the kind\'s own fields', async () => {
    const { key, service } = (await newUser());
    const jobId = (await submit(get(), key, { text: 'hello', ms: 400, gate: `hello-${get().kind}` }));
    const early = await service.call('jobs.status', { job_id: jobId });
    openGate(`hello-${get().kind}`);
    expect(['pending', 'processing']).toContain(early.status);
    expect(early).toMatchObject({ success: true, job_id: jobId, type: 'test-echo', title: 'hello' });
    expect(early).not.toHaveProperty('completed_at');
    expect(early).not.toHaveProperty('error');
    expect(early).not.toHaveProperty('error_message');
    const done = await service.call('jobs.status', { job_id: jobId, wait_seconds: 10 });
    expect(done).toMatchObject({ status: 'completed', analysis_text: 'HELLO' });
    // The 400 ms sleep runs on Node's timer clock, which can end a millisecond early by the wall clock.
    expect(Date.parse(done.completed_at!)).toBeGreaterThanOrEqual(Date.parse(done.started_at!) + 399);
    expect(Date.parse(done.started_at!)).toBeGreaterThanOrEqual(Date.parse(done.created_at));
  });

  it('reports a failed job with its error', async () => {
    const { key, service } = (await newUser());
    const jobId = (await submit(get(), key, { text: 'x', ms: 0, fail: true }));
    const failed = await service.call('jobs.status', { job_id: jobId, wait_seconds: 10 });
    // Both names: the spec's `error`, and `error_message`, which hosted-service clients read first.
    expect(failed).toMatchObject({ status: 'failed', error: 'could not echo "x"', error_message: 'could not echo "x"' });
    expect(failed).not.toHaveProperty('completed_at');
  });

  it('holds a long-poll and answers soon after completion (latency is the bench\'s)', async () => {
    const { key, service } = (await newUser());
    const started = Date.now();
    const jobId = (await submit(get(), key, { text: 'wait', ms: 600 }));
    const done = await service.call('jobs.status', { job_id: jobId, wait_seconds: 5 });
    const answered = Date.now();
    expect(done.status).toBe('completed');
    expect(answered - started).toBeGreaterThanOrEqual(590);
    expect(answered).toBeGreaterThanOrEqual(Date.parse(done.completed_at!));
    expect(answered - Date.parse(done.completed_at!)).toBeLessThan(1_000);
  });

  it('allows 60 status calls a minute per user and answers the 61st with 429 and when to try again', async () => {
    const { key, service } = (await newUser());
    const other = (await newUser());
    const jobId = (await submit(get(), key, { text: 'often', ms: 0 }));
    for (let i = 0; i < 60; i++) await service.call('jobs.status', { job_id: jobId });
    const error = await failure(service.call('jobs.status', { job_id: jobId }));
    expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(error.message).toMatch(/Rate limit exceeded \(60 requests\/min\)\. Try again in \d+s\./);
    expect(error.retryAfterSeconds).toBeGreaterThan(0);
    expect(error.hint).toMatch(/wait_seconds/);
    // Per user: another key polls on.
    const otherJob = (await submit(get(), other.key, { text: 'mine', ms: 0 }));
    expect((await other.service.call('jobs.status', { job_id: otherJob })).job_id).toBe(otherJob);
  });

  it('counts a held long-poll once, however long it holds', async () => {
    const { key, service } = (await newUser());
    await get().engine.settings.set('limits', { professional: { jobStatusPerMinute: 2 } });
    get().engine.reloadLimits();
    try {
      const jobId = (await submit(get(), key, { text: 'slow', ms: 1500 }));
      const held = await service.call('jobs.status', { job_id: jobId, wait_seconds: 10 });
      expect(held.status).toBe('completed');
      expect((await service.call('jobs.status', { job_id: jobId })).status).toBe('completed');
      expect((await failure(service.call('jobs.status', { job_id: jobId }))).status).toBe(429);
    } finally {
      get().engine.settings.delete('limits');
      get().engine.reloadLimits();
    }
  });

  it('answers 404 "Job not found" for unknown ids and for other users\' jobs', async () => {
    const owner = (await newUser());
    const stranger = (await newUser());
    const jobId = (await submit(get(), owner.key, { text: 'mine', ms: 0 }));
    for (const [service, id] of [[stranger.service, jobId], [owner.service, 'no-such-job']] as const) {
      const error = await failure(service.call('jobs.status', { job_id: id }));
      expect(error.status).toBe(404);
      expect(error.message).toMatch(/^Job not found/);
    }
  });
}, { strictResponses: false, postgres: true });
