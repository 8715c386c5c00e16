/**
 * The long-poll's wake-up: a finish announced while a read of the job is on its way (after the
 * read's snapshot showed it running, before its answer came back) still ends the next pause at
 * once, instead of leaving the waiter asleep until its next poll.
 */
import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import type { JobRow } from '../../../src/engine/jobs/job-row.js';
import type { JobQueue } from '../../../src/engine/jobs/queue.js';
import { waitForJob } from '../../../src/engine/jobs/waiter.js';

const JOB = 7;
const row = (state: string) => ({ id: JOB, state }) as unknown as JobRow;

function fakeQueue() {
  const events = new EventEmitter();
  const queue = { events, subscribeFinished: async () => undefined, watch: async () => false } as unknown as JobQueue;
  return { queue, events };
}

it('ends the pause at once when the finish was announced while a read was on its way', async () => {
  const { queue, events } = fakeQueue();
  let reads = 0;
  const load = async () => {
    reads += 1;
    if (reads === 2) {
      // The read's snapshot showed it running; the finish is announced before the answer arrives.
      events.emit('finished', JOB);
      return row('running');
    }
    return row(reads >= 3 ? 'completed' : 'running');
  };
  const started = Date.now();
  const waited = waitForJob(queue, load, { seconds: 20, pollMs: 5_000 });
  // The first pause: a finish of another job does not end it; this job's finish is the second read's.
  setTimeout(() => events.emit('finished', JOB + 1), 20);
  setTimeout(() => events.emit('finished', JOB), 50);
  expect((await waited).state).toBe('completed');
  expect(reads).toBe(3);
  // Well under the 5-second poll that would otherwise end the second pause.
  expect(Date.now() - started).toBeLessThan(2_500);
});

it('wakes on an interrupted notification stream (no id): any job may have finished', async () => {
  const { queue, events } = fakeQueue();
  let reads = 0;
  const load = async () => row(++reads >= 2 ? 'completed' : 'running');
  const started = Date.now();
  const waited = waitForJob(queue, load, { seconds: 20, pollMs: 5_000 });
  setTimeout(() => events.emit('finished', undefined), 30);
  expect((await waited).state).toBe('completed');
  expect(Date.now() - started).toBeLessThan(2_500);
  expect(events.listenerCount('finished')).toBe(0);
});
