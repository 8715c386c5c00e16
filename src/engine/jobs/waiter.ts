/**
 * Long-poll: holds a status request until its job is completed or failed, or the time passes.
 * The job may be finished by another process (a detached worker), so the row is re-read every
 * `pollMs`; a finish announced to this process (its own workers, or the fleet's on Postgres) wakes
 * the waiter at once — also one announced while a read of the row was on its way.
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
  // Heard from before the first read to the end of the wait: a finish announced while a read is on
  // its way (after its snapshot, before its answer) must still cut the next pause short.
  const finish = new FinishHeard(queue);
  try {
    let row = await finish.reading(load);
    if (options.seconds <= 0 || isTerminal(row.state)) return row;
    // Wake-ups from every process of a fleet (Postgres); on SQLite from this one, the rest by polling.
    // Listening and watching come before the next read, so a finish in between is not missed.
    await queue.subscribeFinished().catch(() => undefined);
    if (await queue.watch(row.id)) row = await finish.reading(load);
    const deadline = Date.now() + options.seconds * 1000;
    const { signal, release } = options;
    while (!isTerminal(row.state) && !release?.aborted) {
      signal?.throwIfAborted();
      const left = deadline - Date.now();
      if (left <= 0) break;
      await finish.pause(Math.min(options.pollMs, left), [signal, release]);
      row = await finish.reading(load);
    }
    return row;
  } finally {
    finish.close();
  }
}

/** Whether the job was announced finished since the last read of it began, and a pause that ends when it is. */
class FinishHeard {
  /** The job's id, known from the first read on. */
  private jobId?: number;
  /** Finishes announced since the last read began (undefined: notifications were interrupted, any job may have finished). */
  private readonly heard = new Set<number | undefined>();
  private wake?: () => void;
  private readonly onFinished = (id: number | undefined) => {
    this.heard.add(id);
    if (this.wasHeard()) this.wake?.();
  };

  constructor(private readonly queue: JobQueue) {
    queue.events.on('finished', this.onFinished);
  }

  private wasHeard(): boolean {
    return this.heard.has(undefined) || (this.jobId !== undefined && this.heard.has(this.jobId));
  }

  async reading(load: () => Promise<JobRow>): Promise<JobRow> {
    this.heard.clear();
    const row = await load();
    this.jobId = row.id;
    return row;
  }

  /** Resolves after `ms`, at once when a finish was heard since the last read began, or when a signal aborts. */
  pause(ms: number, signals: (AbortSignal | undefined)[]): Promise<void> {
    if (this.wasHeard()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      this.wake = done;
      const release = () => {
        this.wake = undefined;
        for (const signal of signals) signal?.removeEventListener('abort', done);
      };
      function done() {
        clearTimeout(timer);
        release();
        resolve();
      }
      for (const signal of signals) signal?.addEventListener('abort', done, { once: true });
    });
  }

  close(): void {
    this.queue.events.off('finished', this.onFinished);
  }
}
