/**
 * The watch loop's pacing on a clock the test moves: after a poll the server held, the next one is
 * sent at once; after one it answered early, only a poll interval later. No wall time is measured.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { watchJob, type WatchClock } from '../../../src/cli/watch.js';
import { memoryIO } from '../../support/memory-io.js';

type Body = { status: string };

/** A clock whose pauses move it at once, recording each pause. */
function movedClock(start = 1_000_000) {
  let now = start;
  const pauses: number[] = [];
  const clock: WatchClock = {
    now: () => now,
    sleep: async (ms) => {
      pauses.push(ms);
      now += ms;
    },
  };
  return { clock, pauses, advance: (ms: number) => (now += ms), now: () => now };
}

/** Watches with polls answered by `answer`, which may move the clock (a server holding the call). */
async function watch(clock: ReturnType<typeof movedClock>, answer: (waitSeconds: number, call: number) => Body) {
  const polls: Array<{ at: number; waitSeconds: number }> = [];
  const body = await watchJob<Body>({
    io: memoryIO().io,
    label: 'Job 1',
    resumeCommand: 'tubekit job 1 --watch',
    poll: async (waitSeconds) => {
      polls.push({ at: clock.now(), waitSeconds });
      return answer(waitSeconds, polls.length);
    },
    state: (b) => b.status,
    isTerminal: (b) => b.status === 'completed',
    pollSeconds: () => 2,
    timeoutSeconds: 120,
    interrupts: new EventEmitter(),
    clock: clock.clock,
  });
  return { body, polls };
}

describe('watch pacing', () => {
  it('asks again at once after a poll the server held for its whole wait', async () => {
    const clock = movedClock();
    const { body, polls } = await watch(clock, (waitSeconds, call) => {
      if (call < 3) {
        clock.advance(waitSeconds * 1000);
        return { status: 'processing' };
      }
      // The job finished while this call was held: it answers a moment in.
      clock.advance(250);
      return { status: 'completed' };
    });
    expect(body.status).toBe('completed');
    expect(polls).toHaveLength(3);
    expect(clock.pauses).toEqual([]);
    expect(polls[1]!.waitSeconds).toBeGreaterThan(1);
  });

  it('waits a poll interval after a poll answered at once (a server that does not hold)', async () => {
    const clock = movedClock();
    const { polls } = await watch(clock, (_waitSeconds, call) => {
      clock.advance(40);
      return { status: call < 4 ? 'processing' : 'completed' };
    });
    expect(polls).toHaveLength(4);
    // Each pause makes up the 2 s interval from the start of the last poll.
    expect(clock.pauses).toEqual([1960, 1960, 1960]);
    for (let index = 1; index < polls.length; index += 1) expect(polls[index]!.at - polls[index - 1]!.at).toBe(2000);
  });

  it('paces by the answer just read: a first answer naming a quicker kind shortens the first pause', async () => {
    const clock = movedClock();
    const polls: number[] = [];
    await watchJob<Body & { kind?: string }>({
      io: memoryIO().io,
      label: 'Job 1',
      resumeCommand: 'tubekit job 1 --watch',
      poll: async () => {
        polls.push(clock.now());
        clock.advance(40);
        return { status: polls.length < 3 ? 'processing' : 'completed', kind: 'quick' };
      },
      state: (b) => b.status,
      isTerminal: (b) => b.status === 'completed',
      // Unknown until an answer names it: the slow pace; then the quick one.
      pollSeconds: (b) => (b?.kind === 'quick' ? 2 : 5),
      timeoutSeconds: 120,
      interrupts: new EventEmitter(),
      clock: clock.clock,
    });
    expect(clock.pauses).toEqual([1960, 1960]);
  });
});
