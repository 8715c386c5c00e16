/**
 * The shared job queue on the `jobs` table. Every step that reads and then writes happens in one
 * IMMEDIATE transaction, so several processes on one data dir (CLI, detached worker, serve) never
 * claim the same job twice, and a lease whose holder died is recovered exactly once.
 *
 * Leases fence the work: a claim writes a unique `lease_owner`; heartbeats and the final write only
 * apply while that owner still holds the job, so a worker that was presumed dead cannot overwrite
 * the outcome of the worker that took over.
 */
import { EventEmitter } from 'node:events';
import type { Clock } from '../clock.js';
import type { Db } from '../store/database.js';
import { familyStates, type JobFamily, type JobRow } from './job-row.js';
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
  /** Runs inside the insert's transaction just before the insert (rate limits, caps); throw to refuse. */
  beforeInsert?: () => void;
}

export interface Enqueued {
  row: JobRow;
  /** True when an idempotency key matched an existing job. */
  existing: boolean;
}

export type Outcome = { output: unknown } | { error: string };

export const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * A waiting job may be claimed: channel jobs always; task jobs (generation, analysis) only while
 * their user has fewer than their plan's `concurrentJobs` processing — the rest wait their turn.
 * `@caps` is a JSON object of plan → cap.
 */
const CLAIMABLE = `state = 'queued' OR (state = 'pending' AND
  (SELECT COUNT(*) FROM jobs AS busy WHERE busy.user_id = jobs.user_id AND busy.state = 'processing')
    < COALESCE((SELECT value FROM json_each(@caps) WHERE key = (SELECT plan FROM users WHERE users.id = jobs.user_id)), 1 << 30))`;

export class JobQueue {
  /** 'enqueued' and 'finished' (with the job id), for waiters and workers in this process. */
  readonly events = new EventEmitter();
  private readonly statements;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly defaultMaxAttempts = DEFAULT_MAX_ATTEMPTS,
    /** Each plan's cap on a user's task jobs processing at once (read at every claim). */
    private readonly taskConcurrency: () => Record<string, number> = () => ({}),
    /** Whether the worker behind a lease still lives; a job whose holder died need not wait out its lease. */
    private readonly holderAlive: (leaseOwner: string) => boolean = () => true,
  ) {
    this.events.setMaxListeners(0);
    this.statements = {
      byId: db.prepare<[number], JobRow>('SELECT * FROM jobs WHERE id = ?'),
      byPublicId: db.prepare<[string], JobRow>('SELECT * FROM jobs WHERE public_id = ?'),
      byKey: db.prepare<[number, string, string], JobRow>(
        'SELECT * FROM jobs WHERE user_id = ? AND kind = ? AND idempotency_key = ?',
      ),
      insert: db.prepare<[string | null, string, number, string, string, string | null, number], JobRow>(
        `INSERT INTO jobs (public_id, kind, user_id, state, input, idempotency_key, requested_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      ),
      claim: db.prepare<[{ kinds: string; caps: string; owner: string; expires: number; now: number }], JobRow>(
        `UPDATE jobs SET state = CASE state WHEN 'queued' THEN 'running' ELSE 'processing' END,
                claimed_at = @now, attempts = attempts + 1, lease_owner = @owner, lease_expires_at = @expires
         WHERE id = (SELECT id FROM jobs WHERE (${CLAIMABLE})
                       AND kind IN (SELECT value FROM json_each(@kinds)) ORDER BY id LIMIT 1)
         RETURNING *`,
      ),
      leased: db.prepare<[], JobRow>(`SELECT * FROM jobs WHERE state IN ('running', 'processing')`),
      requeue: db.prepare<[number]>(
        `UPDATE jobs SET state = CASE state WHEN 'running' THEN 'queued' ELSE 'pending' END,
                claimed_at = NULL, lease_owner = NULL, lease_expires_at = NULL WHERE id = ?`,
      ),
      release: db.prepare<[number, string]>(
        `UPDATE jobs SET state = CASE state WHEN 'running' THEN 'queued' ELSE 'pending' END, attempts = attempts - 1,
                claimed_at = NULL, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = ? AND lease_owner = ? AND state IN ('running', 'processing')`,
      ),
      renew: db.prepare<[number, number, string]>(
        `UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND lease_owner = ? AND state IN ('running', 'processing')`,
      ),
      finish: db.prepare<[string, string | null, string | null, number, number, string], JobRow>(
        `UPDATE jobs SET state = ?, result = ?, error = ?, finished_at = ?, lease_owner = NULL, lease_expires_at = NULL
         WHERE id = ? AND lease_owner = ? AND state IN ('running', 'processing') RETURNING *`,
      ),
      claimable: db.prepare<[{ kinds: string; caps: string; now: number }], { yes: number }>(
        `SELECT EXISTS (SELECT 1 FROM jobs WHERE (${CLAIMABLE}) AND kind IN (SELECT value FROM json_each(@kinds)))
             OR EXISTS (SELECT 1 FROM jobs WHERE state IN ('running', 'processing') AND lease_expires_at <= @now) AS yes`,
      ),
      recentOfUser: db.prepare<[{ user: number; kinds: string; state: string | null; limit: number }], JobRow>(
        `SELECT * FROM jobs WHERE user_id = @user AND kind IN (SELECT value FROM json_each(@kinds))
           AND (@state IS NULL OR state = @state) ORDER BY id DESC LIMIT @limit`,
      ),
      waiting: db.prepare<[string], { n: number }>(
        `SELECT COUNT(*) AS n FROM jobs WHERE state IN ('queued', 'pending') AND kind IN (SELECT value FROM json_each(?))`,
      ),
    };
  }

  /** Inserts a job in its family's waiting state, or returns the job an idempotency key names. */
  enqueue(request: EnqueueRequest): Enqueued {
    const run = this.db.transaction((): Enqueued => {
      if (request.idempotencyKey !== undefined) {
        const existing = this.statements.byKey.get(request.userId, request.kind, request.idempotencyKey);
        if (existing) return { row: existing, existing: true };
      }
      request.beforeInsert?.();
      const row = this.statements.insert.get(
        request.publicId ?? null,
        request.kind,
        request.userId,
        familyStates[request.family].waiting,
        JSON.stringify(request.input ?? {}),
        request.idempotencyKey ?? null,
        this.clock.now(),
      )!;
      return { row, existing: false };
    });
    const enqueued = run.immediate();
    if (!enqueued.existing) this.events.emit('enqueued', enqueued.row.id);
    return enqueued;
  }

  get(id: number): JobRow | undefined {
    return this.statements.byId.get(id);
  }

  /** The job a user's idempotency key names, if any. */
  findByKey(userId: number, kind: string, key: string): JobRow | undefined {
    return this.statements.byKey.get(userId, kind, key);
  }

  getByPublicId(publicId: string): JobRow | undefined {
    return this.statements.byPublicId.get(publicId);
  }

  /** A user's latest jobs of `kinds`, newest first, optionally in one state. */
  recentOfUser(userId: number, kinds: readonly string[], state: string | undefined, limit: number): JobRow[] {
    return this.statements.recentOfUser.all({ user: userId, kinds: JSON.stringify(kinds), state: state ?? null, limit });
  }

  /** Takes the oldest waiting job of `kinds` for `owner`, after recovering expired leases. */
  claim(owner: string, kinds: string[], leaseMs: number): JobRow | undefined {
    // Idle workers poll often; a read first keeps them from taking the write lock for nothing.
    const selection = { kinds: JSON.stringify(kinds), caps: JSON.stringify(this.taskConcurrency()) };
    if (!this.statements.claimable.get({ ...selection, now: this.clock.now() })!.yes) return undefined;
    const run = this.db.transaction(() => {
      this.recoverAbandoned();
      const now = this.clock.now();
      return this.statements.claim.get({ ...selection, owner, expires: now + leaseMs, now });
    });
    return run.immediate();
  }

  /** Extends a lease; false when the owner no longer holds the job (recovered, or finished elsewhere). */
  renewLease(id: number, owner: string, leaseMs: number): boolean {
    return this.statements.renew.run(this.clock.now() + leaseMs, id, owner).changes === 1;
  }

  /** Gives a job back untouched (a worker shutting down cleanly); the claim does not count as an attempt. */
  release(id: number, owner: string): boolean {
    const released = this.statements.release.run(id, owner).changes === 1;
    if (released) this.events.emit('enqueued', id);
    return released;
  }

  /** Records the outcome if `owner` still holds the job; undefined when the lease was lost. */
  finish(id: number, owner: string, outcome: Outcome): JobRow | undefined {
    const failed = 'error' in outcome;
    const row = this.statements.finish.get(
      failed ? 'failed' : 'completed',
      failed ? null : JSON.stringify(outcome.output ?? {}),
      failed ? outcome.error : null,
      this.clock.now(),
      id,
      owner,
    );
    if (row) this.events.emit('finished', id);
    return row;
  }

  /**
   * Jobs whose worker is gone go back to waiting, or fail once they have used their attempts, so no
   * job stays running forever: those whose lease ran out, and those whose holder is known dead
   * (its worker host row gone, stale, or its process no longer there) without waiting for the lease.
   * Returns how many rows changed.
   */
  recoverAbandoned(): number {
    const run = this.db.transaction(() => {
      const now = this.clock.now();
      // One liveness check per worker host, however many of its jobs are running.
      const hosts = new Map<string, boolean>();
      const holderAlive = (owner: string) => {
        const host = owner.split('/')[0]!;
        if (!hosts.has(host)) hosts.set(host, this.holderAlive(owner));
        return hosts.get(host)!;
      };
      const abandoned = this.statements.leased
        .all()
        .filter((row) => (row.lease_expires_at !== null && row.lease_expires_at <= now) || !holderAlive(row.lease_owner ?? ''));
      const failed: number[] = [];
      for (const row of abandoned) {
        const maxAttempts = jobProcessor(row.kind)?.maxAttempts ?? this.defaultMaxAttempts;
        if (row.attempts < maxAttempts) {
          this.statements.requeue.run(row.id);
        } else {
          this.statements.finish.get('failed', null, abandonedMessage(row.attempts), now, row.id, row.lease_owner ?? '');
          failed.push(row.id);
        }
      }
      return { changed: abandoned.length, failed };
    });
    const { changed, failed } = run.immediate();
    for (const id of failed) this.events.emit('finished', id);
    if (changed > failed.length) this.events.emit('enqueued');
    return changed;
  }

  /** Whether a job of `kinds` waits to be claimed. */
  hasWaiting(kinds: string[]): boolean {
    return this.statements.waiting.get(JSON.stringify(kinds))!.n > 0;
  }
}

export function abandonedMessage(attempts: number): string {
  return (
    `The worker processing this job stopped responding ${attempts} time${attempts === 1 ? '' : 's'} ` +
    `(it crashed or was killed); gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}. Submit the job again.`
  );
}
