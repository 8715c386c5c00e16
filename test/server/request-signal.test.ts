import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { buildApp } from '../../src/server/app.js';
import { lazyRequestSignal } from '../../src/server/request-signal.js';
import { tempDataDir } from '../support/engines.js';

/** Just what the signal reads of a request or a response: 'close', `destroyed` and the socket. */
function stream(): EventEmitter & { destroyed: boolean; socket?: { destroyed: boolean } } {
  return Object.assign(new EventEmitter(), { destroyed: false, socket: { destroyed: false } });
}

const signalOf = (request: ReturnType<typeof stream>, response: ReturnType<typeof stream>) =>
  lazyRequestSignal(request as unknown as IncomingMessage, response as unknown as ServerResponse);

describe('lazyRequestSignal', () => {
  it('listens for nothing until a handler asks for the signal, then aborts when the response closes', () => {
    const request = stream();
    const response = stream();
    const signal = signalOf(request, response);
    expect(request.listenerCount('close') + response.listenerCount('close')).toBe(0);
    const made = signal();
    expect(made).toBe(signal());
    expect(made.aborted).toBe(false);
    response.emit('close');
    expect(made.aborted).toBe(true);
  });

  it('does not abort when the request closes after its body was read', () => {
    const request = stream();
    const signal = signalOf(request, stream())();
    request.destroyed = true;
    request.emit('close');
    expect(signal.aborted).toBe(false);
  });

  it('is already aborted when asked for after the caller went away', () => {
    const request = stream();
    request.socket!.destroyed = true;
    expect(signalOf(request, stream())().aborted).toBe(true);
    const response = stream();
    response.destroyed = true;
    expect(signalOf(stream(), response)().aborted).toBe(true);
  });
});

describe('a long-poll over serve', () => {
  it('stops waiting when its caller goes away', async () => {
    const dataDir = tempDataDir();
    // Polls far apart and no workers: only the request's signal can end the wait early.
    const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' }, jobTiming: { waitPollMs: 60_000 } });
    const app = buildApp({ engine });
    try {
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const { key } = (await engine.identity.createUserWithKey('ultimate', ['generations']));
      const { job_id } = await engine.handle('generate', { script: 'Hello there.', voice_id: 'espeak-en-us' }, (await engine.authenticate(key)));
      const waiters = () => engine.jobs.queue.events.listenerCount('finished');
      const caller = new AbortController();
      const polling = fetch(`${url}/api/job-status/${job_id}?wait_seconds=30`, { headers: { authorization: `Bearer ${key}` }, signal: caller.signal });
      await until(() => waiters() === 1);
      caller.abort();
      await expect(polling).rejects.toThrow();
      await until(() => waiters() === 0);
    } finally {
      await app.close();
      engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
