/**
 * `--watch` against servers that do not hold job-status requests (the hosted service answers at
 * once): polls are paced, not sent back to back, and a 429 while watching is waited out.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

const JOB_ID = '3f1c2a9e-7b4d-4e2a-9c61-0d5b8e7f6a12';

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

/** A fake service: `answer` decides each reply; every request is recorded with its time. */
async function fakeService(answer: (path: string, count: number) => Answer) {
  const seen: Array<{ method: string; path: string; at: number }> = [];
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const path = (request.url ?? '').split('?')[0]!;
      seen.push({ method: request.method ?? '', path, at: Date.now() });
      const reply = answer(path, seen.filter((entry) => entry.path === path).length);
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    polls: (path: string) => seen.filter((entry) => entry.path === path),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const taskJob = (type: string, status: string, extra: object = {}) => ({
  status: 200,
  body: { success: true, job_id: JOB_ID, type, status, created_at: '2026-11-24T06:00:00.000Z', ...extra },
});

describe('--watch where the server answers job-status at once', () => {
  let cli: CliSandbox;
  let service: Awaited<ReturnType<typeof fakeService>> | undefined;
  const env = { TUBEKIT_API_KEY: 'tk_test_key' };
  beforeAll(() => {
    cli = cliSandbox();
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });
  afterAll(() => cli.cleanup());

  it('polls a generation job every 2 s, not back to back, until --timeout', async () => {
    service = await fakeService(() => taskJob('generation', 'processing'));
    const result = await cli.run(['--base-url', service.url, 'job', JOB_ID, '--watch', '--timeout', '5'], { env });
    expect(result.exitCode).toBe(10);
    const polls = service.polls(`/api/job-status/${JOB_ID}`);
    // At 0, 2 and 4 s: three; a client polling without a pause sends thousands in 5 s.
    expect(polls.length).toBeGreaterThanOrEqual(2);
    expect(polls.length).toBeLessThanOrEqual(4);
    // The first call also opens the connection (slow on a busy machine), so gaps count from the second.
    for (let index = 2; index < polls.length; index += 1) expect(polls[index]!.at - polls[index - 1]!.at).toBeGreaterThanOrEqual(1500);
  });

  it('polls an analysis job every 5 s (the spec) after analyze --watch', async () => {
    service = await fakeService((path) =>
      path === '/api/analyze-video'
        ? { status: 200, body: { success: true, job_id: JOB_ID, status: 'pending', cached: false, duration_seconds: 60 } }
        : taskJob('analysis', 'processing'),
    );
    const result = await cli.run(['--base-url', service.url, 'analyze', 'https://youtu.be/GHGuclERoWA', '--prompt', 'Summarize it', '--watch', '--timeout', '6'], { env });
    expect(result.exitCode).toBe(10);
    const polls = service.polls(`/api/job-status/${JOB_ID}`);
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(polls.length).toBeLessThanOrEqual(2);
  });

  it('paces channel job polls too (process-channel status --watch)', async () => {
    service = await fakeService(() => ({
      status: 200,
      body: { success: true, id: 7, status: 'running', type: 'shorts', channel_input: '@a', resolved_channel_id: 'UCa', requested_at: '2026-11-24T06:00:00.000Z' },
    }));
    const result = await cli.run(['--base-url', service.url, 'process-channel', 'status', '7', '--watch', '--timeout', '5'], { env });
    expect(result.exitCode).toBe(10);
    expect(service.polls('/api/process-channel/7').length).toBeLessThanOrEqual(4);
  });

  it('keeps the fast wake-up where the server holds the request (as serve does)', async () => {
    // The job finishes while a held status call waits (200 ms after the first one arrives, before
    // any hold of a second or more ends): that call answers with the result, and nothing asks after.
    // The order comes from the server's own timers, so a busy machine cannot change it; the pacing
    // itself is proven on a moved clock in test/unit/cli/watch-pacing.test.ts.
    let finished = false;
    let heldCalls = 0;
    let answeredFromHold = 0;
    let askedAfterFinish = 0;
    const waiting = new Set<http.ServerResponse>();
    const reply = (response: http.ServerResponse, status: string) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(taskJob('generation', status).body));
    const finish = () => {
      finished = true;
      for (const response of waiting) {
        answeredFromHold += 1;
        reply(response, 'completed');
      }
      waiting.clear();
    };
    const server = http.createServer((request, response) => {
      const wait = Number(new URL(request.url!, 'http://x').searchParams.get('wait_seconds') ?? 0) * 1000;
      if (finished) {
        askedAfterFinish += 1;
        return reply(response, 'completed');
      }
      if (wait <= 0) return reply(response, 'processing');
      heldCalls += 1;
      waiting.add(response);
      if (heldCalls === 1) setTimeout(finish, 200);
      setTimeout(() => {
        if (waiting.delete(response)) reply(response, 'processing');
      }, wait);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await cli.run(['--base-url', url, '--json', 'job', JOB_ID, '--watch', '--timeout', '20'], { env });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed' });
      expect({ heldCalls, answeredFromHold, askedAfterFinish }).toEqual({ heldCalls: 1, answeredFromHold: 1, askedAfterFinish: 0 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('waits out 429s as the service says ("Try again in N s.") and goes on to the result', async () => {
    const limited = { status: 429, body: { success: false, error: 'Rate limit exceeded (60 requests/min). Try again in 1s.' } };
    // More 429s in a row than one call retries on its own: only the watch can get past them.
    service = await fakeService((_path, count) => (count <= 6 ? limited : taskJob('generation', 'completed', { audio_url: 'https://cdn.example/a.mp3' })));
    const result = await cli.run(['--base-url', service.url, '--json', 'job', JOB_ID, '--watch', '--timeout', '40'], { env });
    expect(result.stderr).not.toMatch(/error:/);
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ job_id: JOB_ID, status: 'completed' });
    const polls = service.polls(`/api/job-status/${JOB_ID}`);
    expect(polls.length).toBe(7);
    for (let index = 1; index < polls.length; index += 1) expect(polls[index]!.at - polls[index - 1]!.at).toBeGreaterThanOrEqual(900);
  });

  it('a 429 that lasts past --timeout still ends with exit 10, not 8', async () => {
    service = await fakeService(() => ({ status: 429, body: { success: false, error: 'Slow down.' }, headers: { 'retry-after': '2' } }));
    const result = await cli.run(['--base-url', service.url, 'job', JOB_ID, '--watch', '--timeout', '4'], { env });
    expect(result.exitCode).toBe(10);
    expect(service.polls(`/api/job-status/${JOB_ID}`).length).toBeLessThanOrEqual(4);
  });
});
