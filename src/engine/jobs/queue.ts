/**
 * The shared job queue on the `jobs` table. Every step that reads and then writes happens in one
 * transaction, so several processes (CLI, detached worker, serve — on one data dir, or a fleet on
 * one Postgres) never claim the same job twice, and a lease whose holder died is recovered once.
 *
 * Leases fence the work: a claim writes a unique `lease_owner`; heartbeats, requeues and the final
 * write only apply while that owner still holds the job, so a worker that was presumed dead cannot
 * overwrite the outcome of the worker that took over.
 *
 * Events ('enqueued' with the job id and family, 'finished' with the job id) go through the store's notifications: on
 * Postgres they reach every process of the fleet (a long-poll on one machine wakes when a worker
 * on another finishes); on SQLite this process, while other processes are seen by polling.
 */
import { EventEmitter } from 'node:events';
import type { Clock } from '../clock.js';
import type { Store, Transaction } from '../store/store.js';
import { claimableOnSqlite, claimFor, SETTINGS_MATCH, finishAndClaimQueued, finishJob, kindsIn, watchJob, type FinishValues } from './claim-sql.js';
import { familyStates, JOB_COLUMNS, type JobFamily, type JobRow } from './job-row.js';
import { jobProcessor } from './registry.js';

export interface EnqueueRequest {
  kind: string;
  family: JobFamily;
  userId: number;
  input: unknown;
  /** The task family's string id. */
  publicId?: string;
  /** A repeat with the same (user, kind, key) returns the existing job and queues nothing. */
  idempotencyKey?: string;
  /** The submitting command's settings digest (job-settings.ts): only a worker with the same runs it. */
  settingsDigest?: string;
  /** Runs inside the insert's transaction just before the insert (rate limits, caps); throw to refuse. */
  beforeInsert?: (tx: Transaction) => Promise<void>;
}

export interface Enqueued {
  row: JobRow;
  /** True when an idempotency key matched an existing job. */
  existing: boolean;
}

/** A failure may keep an output too (JobFailure): what it had spent before failing. */
export type Outcome = { output: unknown } | { error: string; output?: unknown };

export const DEFAULT_MAX_ATTEMPTS = 3;
/**
 * Two channels, so each process hears only what it acts on: workers the submits (`<id>:<family>`),
 * long-polls the finishes (`<id>`). A fleet's workers are not woken by every job another finishes.
 */
export const ENQUEUED_CHANNEL = 'tubekit_jobs_enqueued';
export const FINISHED_CHANNEL = 'tubekit_jobs_finished';

export class JobQueue {
  /**
   * 'enqueued' (job id and family; neither when anything may have been requeued) and 'finished'
   * (job id), for waiters and workers in this process.
   */
  readonly events = new EventEmitter();
  private hearingEnqueued?: Promise<unknown>;
  private hearingFinished?: Promise<unknown>;
  /** When this process last looked for abandoned jobs (clock time). */
  private lastRecovery = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly defaultMaxAttempts = DEFAULT_MAX_ATTEMPTS,
    /** Each plan's cap on a user's task jobs processing at once (read at every claim). */
    private readonly taskConcurrency: () => Record<string, number> = () => ({}),
    /** Which workers behind leases still live (one read for all); a job whose holder died need not wait out its lease. */
    private readonly holdersAlive: () => Promise<(leaseOwner: string) => boolean> = async () => () => true,
    /** How often claims also look for jobs whose holder died (a lease that ran out is seen at once). */
    private readonly recoverEveryMs = 1_000,
  ) {
    this.events.setMaxListeners(0);
  }

  /** Subscribes this process to submits from every process (once; workers call it). */
  subscribeEnqueued(): Promise<unknown> {
    this.hearingEnqueued ??= this.listenTo(ENQUEUED_CHANNEL, 'enqueued', () => (this.hearingEnqueued = undefined));
    return this.hearingEnqueued;
  }

  /** Subscribes this process to finishes from every process (once; long-polls call it). */
  subscribeFinished(): Promise<unknown> {
    this.hearingFinished ??= this.listenTo(FINISHED_CHANNEL, 'finished', () => (this.hearingFinished = undefined));
    return this.hearingFinished;
  }

  /** A long-poll waits on `id`: have its finish announced across the fleet (read the job again after this). */
  watch(id: number): Promise<boolean> {
    return watchJob(this.store, id);
  }

  private listenTo(channel: string, event: 'enqueued' | 'finished', failed: () => void): Promise<unknown> {
    return this.store
      .listen(channel, (payload) => {
        // An empty payload (the listen connection came back): anything may have happened.
        const [id, family] = payload.split(':');
        this.events.emit(event, id ? Number(id) : undefined, family || undefined);
      })
      .catch((error) => {
        failed();
        throw error;
      });
  }

  private announce(event: 'enqueued' | 'finished', id?: number, family?: JobFamily): Promise<void> {
    const [channel, payload] = event === 'enqueued' ? [ENQUEUED_CHANNEL, `${id ?? ''}:${family ?? ''}`] : [FINISHED_CHANNEL, `${id ?? ''}`];
    return this.store.notify(channel, payload).catch(() => undefined);
  }

  /** Inserts a job in its family's waiting state, or returns the job an idempotency key names. */
  async enqueue(request: EnqueueRequest): Promise<Enqueued> {
    const enqueued = await this.store.transaction(async (tx): Promise<Enqueued> => {
      if (request.idempotencyKey !== undefined) {
        // Two submits with one key on two machines: the second waits here, then finds the first's job.
        await tx.lock(`jobs:key:${request.userId}:${request.kind}:${request.idempotencyKey}`);
        const existing = await tx.get<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE user_id = ? AND kind = ? AND idempotency_key = ?`, [request.userId, request.kind, request.idempotencyKey]);
        if (existing) return { row: existing, existing: true };
      }
      await request.beforeInsert?.(tx);
      const row = await tx.get<JobRow>(
        `INSERT INTO jobs (public_id, kind, user_id, state, input, idempotency_key, requested_at, settings_digest)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${JOB_COLUMNS}`,
        [request.publicId ?? null, request.kind, request.userId, familyStates[request.family].waiting, JSON.stringify(request.input ?? {}), request.idempotencyKey ?? null, this.clock.now(), request.settingsDigest ?? null],
      );
      return { row: row!, existing: false };
    });
    if (!enqueued.existing) await this.announce('enqueued', enqueued.row.id, request.family);
    return enqueued;
  }

  get(id: number): Promise<JobRow | undefined> {
    return this.store.get<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = ?`, [id]);
  }

  /** The job a user's idempotency key names, if any. */
  findByKey(userId: number, kind: string, key: string): Promise<JobRow | undefined> {
    return this.store.get<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE user_id = ? AND kind = ? AND idempotency_key = ?`, [userId, kind, key]);
  }

  getByPublicId(publicId: string): Promise<JobRow | undefined> {
    return this.store.get<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE public_id = ?`, [publicId]);
  }

  /** A user's latest jobs of `kinds`, newest first, optionally in one state. */
  recentOfUser(userId: number, kinds: readonly string[], state: string | undefined, limit: number): Promise<JobRow[]> {
    const [inKinds, kindsParam] = kindsIn(this.store, kinds);
    return this.store.all<JobRow>(
      `SELECT ${JOB_COLUMNS} FROM jobs WHERE user_id = ? AND ${inKinds} AND (CAST(? AS TEXT) IS NULL OR state = ?) ORDER BY id DESC LIMIT ?`,
      [userId, kindsParam, state ?? null, state ?? null, limit],
    );
  }

  /**
   * Takes the oldest waiting job of `kinds` for `owner`. Jobs whose holder died go back to the queue
   * first: at once when a lease ran out, and every `recoverEveryMs` for holders known dead before
   * their lease ends. A claim that finds a job costs one statement on Postgres. `settingsDigest`:
   * the claiming worker's (job-settings.ts); it takes jobs with that digest or none.
   */
  async claim(owner: string, kinds: string[], leaseMs: number, settingsDigest?: string): Promise<JobRow | undefined> {
    const caps = this.taskConcurrency();
    const digest = settingsDigest ?? null;
    const claimNow = () => {
      const now = this.clock.now();
      return claimFor(this.store)(this.store, { owner, kinds, caps, now, expires: now + leaseMs, settingsDigest: digest });
    };
    if (this.store.dialect === 'sqlite') {
      // Idle workers poll often; a read first keeps them from taking the write lock for nothing.
      const { waiting, expired } = await claimableOnSqlite(this.store, kinds, caps, this.clock.now(), digest);
      if (expired) await this.recover();
      else if (!waiting) return undefined;
      else await this.recoverIfDue();
      return claimNow();
    }
    const recovered = await this.recoverIfDue();
    const row = await claimNow();
    if (row || recovered !== undefined) return row;
    // Nothing to take: perhaps only because a dead worker still holds it.
    return (await this.recover()) > 0 ? claimNow() : undefined;
  }

  /** Looks for abandoned jobs if `recoverEveryMs` passed since the last look; undefined when it did not look. */
  async recoverIfDue(): Promise<number | undefined> {
    if (this.clock.now() - this.lastRecovery < this.recoverEveryMs) return undefined;
    return this.recover();
  }

  private recover(): Promise<number> {
    this.lastRecovery = this.clock.now();
    return this.recoverAbandoned();
  }

  /** Extends a lease; false when the owner no longer holds the job (recovered, or finished elsewhere). */
  async renewLease(id: number, owner: string, leaseMs: number): Promise<boolean> {
    const { changes } = await this.store.run(
      `UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND state IN ('running', 'processing')`,
      [this.clock.now() + leaseMs, id, owner],
    );
    return changes === 1;
  }

  /** Gives a job back untouched (a worker shutting down cleanly); the claim does not count as an attempt. */
  async release(id: number, owner: string): Promise<boolean> {
    const { changes } = await this.store.run(
      `UPDATE jobs SET state = CASE state WHEN 'running' THEN 'queued' ELSE 'pending' END, attempts = attempts - 1,
              claimed_at = NULL, lease_owner = NULL, lease_expires_at = NULL
       WHERE id = ? AND lease_owner = ? AND state IN ('running', 'processing')`,
      [id, owner],
    );
    if (changes === 1) await this.announce('enqueued', id);
    return changes === 1;
  }

  /** Records the outcome if `owner` still holds the job; undefined when the lease was lost. */
  async finish(id: number, owner: string, outcome: Outcome): Promise<JobRow | undefined> {
    const { state, result, error } = outcomeColumns(outcome);
    return this.finishRow(this.store, id, owner, state, result, error);
  }

  /**
   * Records an outcome like `finish` and claims the oldest waiting channel-family job of `next.kinds`
   * in the same step: a busy worker's one round trip per job.
   */
  async finishAndClaim(id: number, owner: string, outcome: Outcome, next: { owner: string; kinds: string[]; leaseMs: number; settingsDigest?: string }): Promise<{ finished?: JobRow; claimed?: JobRow }> {
    const now = this.clock.now();
    const values: FinishValues = { ...outcomeColumns(outcome), now, id, owner };
    const claim = { owner: next.owner, kinds: next.kinds, caps: {}, now, expires: now + next.leaseMs, settingsDigest: next.settingsDigest ?? null };
    const found = await finishAndClaimQueued(this.store, values, claim, FINISHED_CHANNEL);
    if (found.finished && this.store.dialect === 'sqlite') await this.announce('finished', id);
    return found;
  }

  /** The outcome, announced as 'finished' to every process that can hear it. */
  private async finishRow(on: Store | Transaction, id: number, owner: string, state: string, result: string | null, error: string | null): Promise<JobRow | undefined> {
    const row = await finishJob(on, { state, result, error, now: this.clock.now(), id, owner }, FINISHED_CHANNEL);
    // Postgres sent it with the write; SQLite's listeners are in this process.
    if (row && this.store.dialect === 'sqlite') await this.announce('finished', id);
    return row;
  }

  /**
   * Jobs whose worker is gone go back to waiting, or fail once they have used their attempts, so no
   * job stays running forever: those whose lease ran out, and those whose holder is known dead
   * (its worker host row gone, stale, or its process no longer there) without waiting for the lease.
   * Each change names the owner it saw, so a job claimed again meanwhile is left alone.
   * Returns how many rows changed.
   */
  async recoverAbandoned(): Promise<number> {
    const now = this.clock.now();
    const leased = await this.store.all<JobRow>(`SELECT ${JOB_COLUMNS} FROM jobs WHERE state IN ('running', 'processing')`);
    if (leased.length === 0) return 0;
    const holderAlive = await this.holdersAlive();
    const abandoned = leased.filter((row) => (row.lease_expires_at !== null && row.lease_expires_at <= now) || !holderAlive(row.lease_owner ?? ''));
    if (abandoned.length === 0) return 0;
    const { changed, failed } = await this.store.transaction(async (tx) => {
      let changed = 0;
      let failed = 0;
      for (const row of abandoned) {
        const maxAttempts = jobProcessor(row.kind)?.maxAttempts ?? this.defaultMaxAttempts;
        if (row.attempts < maxAttempts) {
          const { changes } = await tx.run(
            `UPDATE jobs SET state = CASE state WHEN 'running' THEN 'queued' ELSE 'pending' END,
                    claimed_at = NULL, lease_owner = NULL, lease_expires_at = NULL
             WHERE id = ? AND lease_owner = ? AND state IN ('running', 'processing')`,
            [row.id, row.lease_owner],
          );
          changed += changes;
        } else if (await this.finishRow(tx, row.id, row.lease_owner ?? '', 'failed', null, abandonedMessage(row.attempts))) {
          changed += 1;
          failed += 1;
        }
      }
      return { changed, failed };
    });
    if (changed > failed) await this.announce('enqueued');
    return changed;
  }

  /** Whether a job of `kinds` waits to be claimed (by a worker with `settingsDigest`, when given). */
  async hasWaiting(kinds: string[], on: Store | Transaction = this.store, settingsDigest?: string | null): Promise<boolean> {
    const [inKinds, kindsParam] = kindsIn(this.store, kinds);
    const forWorker = settingsDigest === undefined ? '' : ` AND ${SETTINGS_MATCH}`;
    const params = settingsDigest === undefined ? [kindsParam] : [kindsParam, settingsDigest];
    const row = await on.get<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE state IN ('queued', 'pending') AND ${inKinds}${forWorker}`, params);
    return row!.n > 0;
  }
}

function outcomeColumns(outcome: Outcome): { state: string; result: string | null; error: string | null } {
  if ('error' in outcome) return { state: 'failed', result: outcome.output === undefined ? null : JSON.stringify(outcome.output), error: outcome.error };
  return { state: 'completed', result: JSON.stringify(outcome.output ?? {}), error: null };
}

export function abandonedMessage(attempts: number): string {
  return (
    `The worker processing this job stopped responding ${attempts} time${attempts === 1 ? '' : 's'} ` +
    `(it crashed or was killed); gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}. Submit the job again.`
  );
}
