/**
 * `--watch`: waits for a job to reach a terminal state. Progress goes to stderr only: a spinner
 * with the state and elapsed time on a terminal, otherwise one line per state change (none with
 * --quiet). `--timeout` passing exits 10; Ctrl-C stops watching (the job keeps running), says how
 * to resume, and exits 3. The caller prints the final body.
 *
 * Each poll asks the server to hold (long-poll, `wait_seconds`). A server that held it answers a
 * finished job at once and is asked again straight away; one that answered sooner than asked (the
 * hosted service does not hold job-status) is asked again only a poll interval after the last
 * request. A 429 is waited out as the server says, not fatal.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ServiceError } from '../core/errors.js';
import { LONG_POLL_MAX_SECONDS } from '../core/job-constants.js';
import { cancelled, timedOut, usageError } from '../core/client-errors.js';
import type { IO } from './io.js';

/** The longest pause between polls however long a job runs. */
export const MAX_POLL_INTERVAL_SECONDS = 15;

/**
 * Seconds between polls: `baseSeconds` at first, then a twentieth of the time already waited
 * (a job running ten minutes is polled every 15 s, not every 2).
 */
export function pollIntervalSeconds(baseSeconds: number, elapsedMs: number): number {
  return Math.min(Math.max(baseSeconds, MAX_POLL_INTERVAL_SECONDS), Math.max(baseSeconds, Math.floor(elapsedMs / 20_000)));
}

export interface WatchOptions<T> {
  io: IO;
  /** What is watched, for messages: "Job 42". */
  label: string;
  /** The command that picks up watching again: printed after Ctrl-C or a timeout. */
  resumeCommand: string;
  /** One status call holding for up to `waitSeconds`; must honour `signal`. */
  poll(waitSeconds: number, signal: AbortSignal): Promise<T>;
  state(body: T): string;
  isTerminal(body: T): boolean;
  /**
   * Long-polls hold until a terminal state, so a job still waiting for a worker is re-read with
   * short holds instead (every second at first), to report the moment it starts.
   */
  isWaiting?(body: T): boolean;
  /** The base poll interval in seconds for a job like `body` (undefined before the first answer). */
  pollSeconds(body: T | undefined): number;
  /** Overall limit in seconds; none when undefined. */
  timeoutSeconds?: number;
  /**
   * A body already in hand (the submit answer), shown before the first poll. The result always
   * comes from a status call, even when this one is already terminal (an idempotent replay's
   * submit body lacks what the finished job carries).
   */
  initial?: T;
  /** Where Ctrl-C comes from (tests pass their own). */
  interrupts?: NodeJS.EventEmitter;
  /** Time and pauses (tests pass a clock they move). */
  clock?: WatchClock;
}

export interface WatchClock {
  now(): number;
  /** Resolves after `ms`, or rejects when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

const wallClock: WatchClock = { now: () => Date.now(), sleep: (ms, signal) => sleep(ms, undefined, { signal }) };

export async function watchJob<T>(options: WatchOptions<T>): Promise<T> {
  const { io, label } = options;
  const clock = options.clock ?? wallClock;
  const started = clock.now();
  const deadline = options.timeoutSeconds === undefined ? Infinity : started + options.timeoutSeconds * 1000;
  const interrupts = options.interrupts ?? process;
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(new Error('interrupted'));
  interrupts.on('SIGINT', onInterrupt);

  const spinner = await io.spinner(`${label}: waiting`);
  let state = options.initial === undefined ? '' : options.state(options.initial);
  const showState = () => spinner.update(`${label}: ${state} · ${Math.floor((clock.now() - started) / 1000)}s`);
  const ticker = setInterval(showState, 1000);
  const announce = (next: string) => {
    if (next === state && state !== '') return;
    state = next;
    showState();
    if (!io.stderrIsTerminal) io.note(`${label}: ${state}`);
  };
  if (options.initial !== undefined) {
    state = '';
    announce(options.state(options.initial));
  }
  /** Waits `ms` (never past the deadline); Ctrl-C ends the wait and the watch. */
  const pause = async (ms: number) => {
    const until = Math.min(ms, deadline - clock.now());
    if (until <= 0) return;
    await clock.sleep(until, stop.signal).catch(() => {
      throw cancelledError(options);
    });
  };

  try {
    let body: T | undefined;
    while (body === undefined || !options.isTerminal(body)) {
      const left = deadline - clock.now();
      if (left <= 0) throw timeoutError(options, state);
      const seen = body ?? options.initial;
      const intervalMs = pollIntervalSeconds(options.pollSeconds(seen), clock.now() - started) * 1000;
      const waiting = seen === undefined || options.isWaiting?.(seen);
      const hold = waiting ? pollIntervalSeconds(1, clock.now() - started) : LONG_POLL_MAX_SECONDS;
      const waitSeconds = Math.max(1, Math.min(hold, Math.ceil(left / 1000)));
      const pollStarted = clock.now();
      const call = new AbortController();
      const abortCall = () => call.abort(stop.signal.reason);
      stop.signal.addEventListener('abort', abortCall, { once: true });
      const timer = Number.isFinite(left) ? setTimeout(() => call.abort(new Error('timed out')), left) : undefined;
      try {
        body = await options.poll(waitSeconds, call.signal);
      } catch (error) {
        if (stop.signal.aborted) throw cancelledError(options);
        if (call.signal.aborted) throw timeoutError(options, state);
        if (!(error instanceof ServiceError && error.status === 429)) throw error;
        // Rate limited while watching: wait as the server says, then go on polling.
        const waitMs = Math.max(intervalMs, (error.retryAfterSeconds ?? 0) * 1000);
        if (!io.stderrIsTerminal) io.note(`${label}: rate limited by the service; polling again in ${Math.ceil(waitMs / 1000)}s`);
        await pause(waitMs);
        continue;
      } finally {
        clearTimeout(timer);
        stop.signal.removeEventListener('abort', abortCall);
      }
      announce(options.state(body));
      const took = clock.now() - pollStarted;
      const held = took >= waitSeconds * 900;
      // Paced by the answer just read: it may name the job's kind, which the first poll did not know.
      const paceMs = pollIntervalSeconds(options.pollSeconds(body), clock.now() - started) * 1000;
      if (!options.isTerminal(body) && !held) await pause(paceMs - took);
    }
    return body;
  } finally {
    clearInterval(ticker);
    spinner.stop();
    interrupts.off('SIGINT', onInterrupt);
  }
}

function timeoutError(options: WatchOptions<unknown>, state: string) {
  return timedOut(
    `${options.label} is still ${state || 'unfinished'} after ${options.timeoutSeconds}s; stopped waiting (the job keeps running).`,
    `Resume with: ${options.resumeCommand}`,
  );
}

function cancelledError(options: WatchOptions<unknown>) {
  return cancelled(`Stopped watching ${options.label}; the job keeps running.`, `Resume with: ${options.resumeCommand}`);
}

/**
 * `--timeout <seconds>`: a positive number of seconds, or a usage error before any call. Without
 * --watch nothing waits, so a timeout there is a mistake a script should hear about.
 */
export function parseTimeoutSeconds(value: string | undefined, watching: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (!watching) throw usageError('--timeout only applies while waiting: add --watch.');
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(seconds > 0)) {
    throw usageError(`--timeout must be a positive number of seconds, not "${value}".`);
  }
  return seconds;
}
