/**
 * A worker: claims jobs of the registered kinds and runs their processors, renewing each lease
 * while the processor works. Runs in `serve` and in-process engines, and as `tubekit engine worker`
 * (foreground, or detached with `--until-idle`).
 *
 * Each job family has its own slots, so a one-second generation never waits behind minutes-long
 * channel jobs: `concurrency` channel jobs at a time, and task jobs (generation, analysis) up to the
 * largest per-user cap of the plan table (each user's own cap is enforced by the claim).
 */
import { insufficientStorage } from '../../core/errors.js';
import { isDiskFull } from '../store/disk-space.js';
import { PLANS } from '../limits/plans.js';
import type { EngineContext } from '../context.js';
import { JobFailure } from './job-failure.js';
import { toJob, type JobFamily, type JobRow } from './job-row.js';
import { familyOf, jobProcessor, registeredKinds } from './registry.js';
import type { Outcome } from './queue.js';
import type { WorkerHostMode } from './worker-hosts.js';

export interface WorkerOptions {
  /** Channel jobs run at once by this worker. */
  concurrency?: number;
  /** Task jobs (generation, analysis) run at once; default: the plan table's largest `concurrentJobs`. */
  taskConcurrency?: number;
  /** Exit once nothing has been running or waiting for `idleMs`. */
  untilIdle?: boolean;
  idleMs?: number;
  /** How this host shows in `job_workers`. */
  mode?: WorkerHostMode;
  /** Kinds to claim (default: every registered kind). */
  kinds?: string[];
  /**
   * The settings this worker runs jobs with (job-settings.ts): it claims jobs submitted with the
   * same, or without any. Undefined: only jobs without any.
   */
  settingsDigest?: string;
  /** One line per event (claims, outcomes, problems). */
  log?: (line: string) => void;
}

export interface WorkerStats {
  completed: number;
  failed: number;
}

interface InFlight {
  id: number;
  owner: string;
  family: JobFamily;
}

/** Task jobs are claimed first: they are short, and a person is usually waiting on them. */
const FAMILIES: JobFamily[] = ['task', 'channel'];

export class Worker {
  private readonly stopping = new AbortController();
  private readonly inFlight = new Map<number, InFlight>();
  private readonly running = new Set<Promise<void>>();
  private readonly stats: WorkerStats = { completed: 0, failed: 0 };
  private hostId?: string;
  private claims = 0;
  private wakeUp?: () => void;
  private woken = false;
  /**
   * Where every submit reaches this worker as a notification (Postgres), a family is claimed from
   * only while it may have waiting jobs: set by an 'enqueued' notification (and a periodic
   * recheck), cleared by a claim that found nothing — so an idle fleet sends no empty claims.
   * On SQLite, other processes' submits are not heard: every family is always worth a look.
   */
  private readonly mayHaveWork: Record<JobFamily, boolean> = { task: true, channel: true };
  /** Notifications per family, to tell whether one arrived while a claim was on its way. */
  private readonly heard: Record<JobFamily, number> = { task: 0, channel: 0 };
  private hearsSubmits = false;

  constructor(
    private readonly engine: EngineContext,
    private readonly options: WorkerOptions = {},
  ) {}

  get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** Runs until `stop()` (or, with `untilIdle`, until the queue stays idle). */
  async run(): Promise<WorkerStats> {
    const { queue, hosts, timing } = this.engine.jobs;
    const mode = this.options.mode ?? 'foreground';
    const slots: Record<JobFamily, () => number> = {
      channel: () => Math.max(1, this.options.concurrency ?? 1),
      // Read at every claim, like the caps themselves: `engine limits set` may change them.
      task: () => Math.max(1, this.options.taskConcurrency ?? Math.max(...PLANS.map((plan) => this.engine.planLimits(plan).concurrentJobs))),
    };
    const idleMs = this.options.idleMs ?? timing.idleExitMs;
    // Read at every claim: engine features (and their processors) load on first use, so a kind
    // registered after this worker started must still be claimed.
    const kinds = () => this.kinds();
    const wake = (_id?: number, family?: JobFamily) => {
      for (const each of FAMILIES) {
        if (family !== undefined && family !== each) continue;
        this.mayHaveWork[each] = true;
        this.heard[each] += 1;
      }
      this.wake();
    };
    queue.events.on('enqueued', wake);
    // Submits on other processes of a fleet wake this worker at once (Postgres); otherwise it polls.
    // Subscribed before registering, so a worker that shows as a live host hears every submit.
    this.hearsSubmits = await queue.subscribeEnqueued().then(
      () => this.engine.store.notifiesAcrossProcesses,
      (error: Error) => {
        this.log(`worker: no wake-ups from other processes (${error.message}); polling`);
        return false;
      },
    );
    const digest = this.options.settingsDigest;
    this.hostId = await hosts.register(mode, { runsHere: true, settingsDigest: digest });
    const hostBeat = setInterval(() => {
      // A notification lost with a dropped connection is made up for here.
      wake();
      void this.guard(() => hosts.beat(this.hostId!, mode, digest));
    }, timing.hostHeartbeatMs);
    hostBeat.unref();
    let idleSince = Date.now();
    try {
      while (!this.stopped) {
        try {
          // Jobs of a worker that died are taken up even while nothing new is submitted.
          // (A busy worker claims its next job as it finishes one, so this loop may not claim for a while.)
          await queue.recoverIfDue();
          for (const family of FAMILIES) {
            const familyKinds = this.kindsOf(family);
            while (familyKinds.length > 0 && this.runningOf(family) < slots[family]() && !this.stopped) {
              if (!this.worthClaiming(family)) break;
              const heardBefore = this.heard[family];
              const owner = `${this.hostId}/${++this.claims}`;
              const row = await queue.claim(owner, familyKinds, timing.leaseMs, digest);
              if (!row) {
                if (this.heard[family] === heardBefore) this.mayHaveWork[family] = false;
                break;
              }
              // Stopped while the claim was on its way: give the job straight back.
              if (this.stopped) {
                await this.guard(() => queue.release(row.id, owner));
                break;
              }
              this.start(row, owner, family);
            }
          }
          if (this.inFlight.size > 0) idleSince = Date.now();
          if (this.options.untilIdle && this.inFlight.size === 0 && Date.now() - idleSince >= idleMs) {
            if (await hosts.retireIfIdle(this.hostId, (tx) => queue.hasWaiting(kinds(), tx, digest ?? null))) break;
          }
        } catch (error) {
          if (this.stopped) break;
          // A busy or briefly unavailable database must not kill the worker; try again shortly.
          this.log(`worker error: ${(error as Error).message}`);
          await this.sleep(1000);
          continue;
        }
        await this.sleep(timing.idlePollMs);
      }
      await Promise.allSettled([...this.running]);
    } finally {
      clearInterval(hostBeat);
      queue.events.off('enqueued', wake);
      if (!this.stopped) await this.guard(() => hosts.unregister(this.hostId!));
    }
    return { ...this.stats };
  }

  /**
   * Stops at once: jobs in flight go back to the queue for another worker, and this host
   * unregisters; resolves when both are written, so an engine can close its store right after.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopping.abort();
    this.wake();
    const { queue, hosts } = this.engine.jobs;
    const inFlight = [...this.inFlight.values()];
    this.inFlight.clear();
    await Promise.all(inFlight.map((job) => this.guard(() => queue.release(job.id, job.owner))));
    if (this.hostId) await this.guard(() => hosts.unregister(this.hostId!));
  }

  /** Kinds to claim, read at every claim: features (and their processors) load on first use. */
  private kinds(): string[] {
    return this.options.kinds ?? registeredKinds();
  }

  private kindsOf(family: JobFamily): string[] {
    return this.kinds().filter((kind) => jobProcessor(kind) && familyOf(kind) === family);
  }

  private worthClaiming(family: JobFamily): boolean {
    return !this.hearsSubmits || this.mayHaveWork[family];
  }

  /** Jobs of a family this worker is running now. */
  private runningOf(family: JobFamily): number {
    let count = 0;
    for (const job of this.inFlight.values()) if (job.family === family) count += 1;
    return count;
  }

  private start(row: JobRow, owner: string, family: JobFamily): void {
    this.inFlight.set(row.id, { id: row.id, owner, family });
    this.log(`job ${row.public_id ?? row.id} (${row.kind}) claimed, attempt ${row.attempts}`);
    const task = this.process(row, owner).finally(() => {
      this.running.delete(task);
      this.inFlight.delete(row.id);
      this.wake();
    });
    this.running.add(task);
  }

  private async process(row: JobRow, owner: string): Promise<void> {
    const { queue, timing } = this.engine.jobs;
    const leaseLost = new AbortController();
    const signal = AbortSignal.any([this.stopping.signal, leaseLost.signal]);
    const heartbeat = setInterval(() => {
      void this.guard(async () => {
        if (!(await queue.renewLease(row.id, owner, timing.leaseMs))) leaseLost.abort(new Error('lease lost'));
      });
    }, timing.heartbeatMs);
    let outcome: Outcome;
    try {
      const processor = jobProcessor(row.kind);
      if (!processor) throw new Error(`No processor for jobs of kind "${row.kind}" in this worker.`);
      outcome = { output: await processor.process(toJob(row), { engine: this.engine, signal }) };
    } catch (error) {
      outcome = error instanceof JobFailure ? { error: failureMessage(error.failure), output: error.output } : { error: failureMessage(error) };
    } finally {
      clearInterval(heartbeat);
    }
    // Stopped or superseded: the outcome now belongs to whoever holds the job.
    if (signal.aborted) return;
    const finished = await this.finishAndTakeNext(row, owner, outcome);
    if (!finished) return;
    if ('error' in outcome) this.stats.failed += 1;
    else this.stats.completed += 1;
    this.log(`job ${row.public_id ?? row.id} ${finished.state}${'error' in outcome ? `: ${outcome.error}` : ''}`);
  }

  /**
   * Records the outcome. A channel job's slot is handed straight to the next waiting channel job in
   * the same round trip (task jobs are claimed by the loop: their users' caps need a transaction).
   */
  private async finishAndTakeNext(row: JobRow, owner: string, outcome: Outcome): Promise<JobRow | undefined> {
    const { queue, timing } = this.engine.jobs;
    const family = familyOf(row.kind);
    const kinds = family === 'channel' && !this.stopped && this.worthClaiming(family) ? this.kindsOf(family) : [];
    if (kinds.length === 0) return this.guard(() => queue.finish(row.id, owner, outcome));
    const heardBefore = this.heard[family];
    const nextOwner = `${this.hostId}/${++this.claims}`;
    const found = await this.guard(() => queue.finishAndClaim(row.id, owner, outcome, { owner: nextOwner, kinds, leaseMs: timing.leaseMs, settingsDigest: this.options.settingsDigest }));
    if (found?.claimed) {
      if (this.stopped) await this.guard(() => queue.release(found.claimed!.id, nextOwner));
      else this.start(found.claimed, nextOwner, family);
    } else if (found && this.heard[family] === heardBefore) {
      this.mayHaveWork[family] = false;
    }
    return found?.finished;
  }

  private wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Sleeps until `ms` pass, a job is enqueued or finishes in this process, or the worker stops. */
  private async sleep(ms: number): Promise<void> {
    if (this.woken || this.stopped) {
      this.woken = false;
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
    this.wakeUp = undefined;
    this.woken = false;
  }

  /** Runs a store step; a failure (a database briefly away, or closed while stopping) is logged, not thrown. */
  private async guard<T>(step: () => Promise<T>): Promise<T | undefined> {
    try {
      return await step();
    } catch (error) {
      if (!this.stopped) this.log(`worker error: ${(error as Error).message}`);
      return undefined;
    }
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}

function failureMessage(error: unknown): string {
  if (isDiskFull(error)) return insufficientStorage().message;
  const message = error instanceof Error ? error.message : String(error);
  return message.trim() || 'The job failed without a message.';
}

/** Runs a worker until it stops or, with `untilIdle`, until the queue stays idle. */
export function runWorker(engine: EngineContext, options: WorkerOptions & { signal?: AbortSignal } = {}): Promise<WorkerStats> {
  const worker = new Worker(engine, options);
  options.signal?.addEventListener('abort', () => void worker.stop(), { once: true });
  return worker.run();
}
