/**
 * The engine's jobs: the queue, the worker hosts, and who runs the work. How work gets run
 * depends on where the engine lives:
 *  - 'in-process' (default; serve, tests, library use): worker loops in this process, started on
 *    the first enqueue or by `startWorkers()`;
 *  - 'spawn' (local CLI): the process exits right after a submit, so a detached
 *    `tubekit engine worker --until-idle` is started unless a live worker host already exists;
 *  - 'none' (the `engine worker` command itself, which runs its own loop).
 */
import type { Clock } from '../clock.js';
import type { EngineContext } from '../context.js';
import { PLANS } from '../limits/plans.js';
import type { Store } from '../store/store.js';
import { isTerminal, isWaiting, type JobRow } from './job-row.js';
import { JobQueue, type EnqueueRequest, type Enqueued } from './queue.js';
import { familyOf } from './registry.js';
import type { JobSettings } from './job-settings.js';
import { spawnDetachedWorker, type WorkerSpawner } from './spawn.js';
import { resolveJobTiming, type JobTiming } from './timing.js';
import { waitForJob } from './waiter.js';
import { Worker } from './worker.js';
import { WorkerHosts } from './worker-hosts.js';

export type JobRunner =
  | { mode: 'in-process'; workers?: number }
  /**
   * `settings`: the submitting command's job settings (job-settings.ts), the detached worker's in
   * place of this process's, and their digest, recorded on each job so that only a worker started
   * with the same settings runs it (read on the first submit).
   */
  | { mode: 'spawn'; spawn?: WorkerSpawner; settings?: () => JobSettings }
  | { mode: 'none' };

export const DEFAULT_IN_PROCESS_WORKERS = 2;
/** How often a long-poll on a waiting job checks that a worker is alive. */
const ENSURE_INTERVAL_MS = 1_000;
/** How often a long-poll re-reads its job when finishes are announced across processes (Postgres). */
const NOTIFIED_POLL_MS = 1_000;
/** Settings key of timing overrides shared by every process (tests shorten the lease this way). */
export const JOB_TIMING_SETTING = 'job-timing';

export class JobSystem {
  readonly queue: JobQueue;
  readonly hosts: WorkerHosts;
  readonly timing: JobTiming;
  private worker?: Worker;
  private settingsRead?: JobSettings;
  /** Aborted by releaseWaiters(): the long-polls held at that moment answer at once. */
  private release = new AbortController();

  constructor(
    private readonly engine: EngineContext,
    store: Store,
    clock: Clock,
    private readonly runner: JobRunner = { mode: 'in-process' },
    timing: Partial<JobTiming> = {},
  ) {
    // Settings first (every process on the data dir sees them), then this engine's own options.
    this.timing = resolveJobTiming({ ...engine.settings.get<Partial<JobTiming>>(JOB_TIMING_SETTING), ...timing });
    this.hosts = new WorkerHosts(store, clock, this.timing.hostStaleMs);
    this.queue = new JobQueue(
      store,
      clock,
      this.timing.maxAttempts,
      () => Object.fromEntries(PLANS.map((plan) => [plan, engine.planLimits(plan).concurrentJobs])),
      () => this.hosts.holdersAlive(),
      // A dead holder is known by its missing heartbeat: looking more often than hosts beat finds nothing new.
      this.timing.hostHeartbeatMs,
    );
  }

  /** Queues a job of a registered kind and makes sure something will run it. */
  async enqueue(request: Omit<EnqueueRequest, 'family'>): Promise<Enqueued> {
    const enqueued = await this.queue.enqueue({ ...request, family: familyOf(request.kind), settingsDigest: this.settingsDigest });
    if (!enqueued.existing) await this.ensureRunner();
    return enqueued;
  }

  /**
   * Makes sure a worker will pick up waiting jobs. Called after enqueues and by status reads of
   * unfinished jobs, so a job left behind by a dead worker is taken up again on the next look.
   */
  async ensureRunner(): Promise<void> {
    switch (this.runner.mode) {
      case 'in-process':
        this.startWorkers();
        return;
      case 'spawn':
        if (await this.hosts.reserveSpawn(this.settingsDigest)) this.runner.spawn ? this.runner.spawn(this.engine.dataDir) : spawnDetachedWorker(this.engine.dataDir, this.engine.storeUrl, undefined, this.jobSettings?.env);
        return;
      case 'none':
        return;
    }
  }

  /** The digest of the settings this engine's jobs must run with; undefined: any worker's. */
  private get settingsDigest(): string | undefined {
    return this.jobSettings?.digest;
  }

  private get jobSettings(): JobSettings | undefined {
    if (this.runner.mode !== 'spawn' || !this.runner.settings) return undefined;
    this.settingsRead ??= this.runner.settings();
    return this.settingsRead;
  }

  /** Starts this process's worker loops (serve does so at start, whatever the runner); no-op if running. */
  startWorkers(count = (this.runner.mode === 'in-process' && this.runner.workers) || DEFAULT_IN_PROCESS_WORKERS): void {
    if (this.worker || count <= 0) return;
    const worker = new Worker(this.engine, { concurrency: count, mode: 'in-process' });
    this.worker = worker;
    worker.run().catch(() => undefined).finally(() => {
      if (this.worker === worker) this.worker = undefined;
    });
  }

  /**
   * A job re-read until terminal or `seconds` pass (long-poll). Expired leases are recovered on the
   * way, and while the job waits for a worker the runner is re-checked every second, so a job
   * whose worker died is picked up again while someone is looking at it.
   */
  async wait(load: () => Promise<JobRow>, seconds: number, signal?: AbortSignal): Promise<JobRow> {
    let lastEnsured = 0;
    const next = async () => {
      const row = await this.refresh(await load());
      if ((isWaiting(row.state) || lastEnsured === 0) && !isTerminal(row.state) && Date.now() - lastEnsured >= ENSURE_INTERVAL_MS) {
        lastEnsured = Date.now();
        await this.ensureRunner();
      }
      return row;
    };
    // Where finishes reach every process as notifications, polling is only the fallback for a lost one.
    const pollMs = this.engine.store.notifiesAcrossProcesses ? Math.max(this.timing.waitPollMs, NOTIFIED_POLL_MS) : this.timing.waitPollMs;
    return waitForJob(this.queue, next, { seconds, pollMs, signal, release: this.release.signal });
  }

  /** Ends every long-poll held now with its job's current state (serve shutting down). */
  releaseWaiters(): void {
    this.release.abort();
    this.release = new AbortController();
  }

  /**
   * Stops this process's workers; the promise (undefined when none ran) resolves once their jobs
   * are back in the queue, so the engine can close its store.
   */
  stop(): Promise<void> | undefined {
    const worker = this.worker;
    this.worker = undefined;
    return worker?.stop();
  }

  /**
   * A running job whose worker is gone — its lease ran out, or its holder is known dead — is
   * requeued (or failed) before anyone is shown it, so a poll never reports a dead worker's job as
   * running with a rising elapsed time.
   */
  private async refresh(row: JobRow): Promise<JobRow> {
    const leased = row.lease_owner !== null && row.lease_expires_at !== null;
    if (leased && (row.lease_expires_at! <= this.engine.clock.now() || !(await this.hosts.holdsAlive(row.lease_owner!)))) {
      await this.queue.recoverAbandoned();
      return (await this.queue.get(row.id)) ?? row;
    }
    return row;
  }
}
