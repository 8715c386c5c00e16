/**
 * Long-poll: holds a status request until its job is completed or failed, or the time passes.
 * The job may be finished by another process (a detached worker), so the row is re-read every
 * `pollMs`; a finish in this process (serve's own workers) wakes the waiter at once.
 */
import { isTerminal, type JobRow } from './job-row.js';
import type { JobQueue } from './queue.js';

export interface WaitOptions {
  seconds: number;
  pollMs: number;
  /** The caller went away: stop and throw. */
  signal?: AbortSignal;
  /** Answer now with the current state (the server is shutting down). */
  release?: AbortSignal;
}

/** The row once terminal or when the wait ends; throws the abort reason if the caller went away. */
export async function waitForJob(queue: JobQueue, load: () => Promise<JobRow>, options: WaitOptions): Promise<JobRow> {
  let row = await load();
  if (options.seconds <= 0 || isTerminal(row.state)) return row;
  // Wake-ups from every process of a fleet (Postgres); on SQLite from this one, the rest by polling.
  // Listening and watching come before the next read, so a finish in between is not missed.
  await queue.subscribeFinished().catch(() => undefined);
  if (await queue.watch(row.id)) row = await load();
  const deadline = Date.now() + options.seconds * 1000;
  const { signal, release } = options;
  while (!isTerminal(row.state) && !release?.aborted) {
    signal?.throwIfAborted();
    const left = deadline - Date.now();
    if (left <= 0) break;
    await pause(queue, row.id, Math.min(options.pollMs, left), [signal, release]);
    row = await load();
  }
  return row;
}

/** Resolves after `ms`, when `jobId` finishes in this process, or when a signal aborts. */
function pause(queue: JobQueue, jobId: number, ms: number, signals: (AbortSignal | undefined)[]): Promise<void> {
  return new Promise((resolve) => {
    // No id: the notifications were interrupted, and any job may have finished meanwhile.
    const onFinished = (id: number | undefined) => {
      if (id === undefined || id === jobId) done();
    };
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      queue.events.off('finished', onFinished);
      for (const signal of signals) signal?.removeEventListener('abort', done);
      resolve();
    }
    queue.events.on('finished', onFinished);
    for (const signal of signals) signal?.addEventListener('abort', done, { once: true });
  });
}
