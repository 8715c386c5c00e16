/**
 * The queue's statements that differ by dialect. The claim takes the oldest job of the given kinds
 * that may run now: channel jobs always; task jobs (generation, analysis) only while their user has
 * fewer than their plan's `concurrentJobs` processing. The finish writes the outcome and, on
 * Postgres, announces it to the fleet in the same round trip.
 */
import type { Executor, SqlValue, Store, Transaction } from '../store/store.js';
import { JOB_COLUMNS, type JobRow } from './job-row.js';

export interface ClaimRequest {
  owner: string;
  kinds: string[];
  /** Plan → cap of a user's task jobs processing at once. */
  caps: Record<string, number>;
  now: number;
  expires: number;
  /** The claiming worker's settings digest (job-settings.ts): jobs with it or none are claimable. */
  settingsDigest: string | null;
}

/** A job this worker may run: submitted without settings, or with the worker's own (one parameter). */
export const SETTINGS_MATCH = '(settings_digest IS NULL OR settings_digest = ?)';

const CLAIMED = `state = CASE state WHEN 'queued' THEN 'running' ELSE 'processing' END,
  claimed_at = ?, attempts = attempts + 1, lease_owner = ?, lease_expires_at = ?`;

/** SQLite: one UPDATE in an IMMEDIATE transaction — the file's write lock makes it exclusive. */
const SQLITE_CLAIMABLE = `state = 'queued' OR (state = 'pending' AND
  (SELECT COUNT(*) FROM jobs AS busy WHERE busy.user_id = jobs.user_id AND busy.state = 'processing')
    < COALESCE((SELECT value FROM json_each(?) WHERE key = (SELECT plan FROM users WHERE users.id = jobs.user_id)), 1 << 30))`;

function claimOnSqlite(store: Store, request: ClaimRequest): Promise<JobRow | undefined> {
  return store.transaction((tx) => claimInSqliteTransaction(tx, request));
}

function claimInSqliteTransaction(tx: Executor, request: ClaimRequest): Promise<JobRow | undefined> {
  return tx.get<JobRow>(
    `UPDATE jobs SET ${CLAIMED}
     WHERE id = (SELECT id FROM jobs WHERE (${SQLITE_CLAIMABLE})
                   AND kind IN (SELECT value FROM json_each(?)) AND ${SETTINGS_MATCH} ORDER BY id LIMIT 1)
     RETURNING ${JOB_COLUMNS}`,
    [request.now, request.owner, request.expires, JSON.stringify(request.caps), JSON.stringify(request.kinds), request.settingsDigest],
  );
}

/**
 * Postgres: the oldest waiting row nobody else is claiming (`FOR UPDATE SKIP LOCKED`), so workers
 * on many machines claim side by side without waiting on each other. A task job's user cap is then
 * checked under a lock on that user, so two machines cannot both take the user's last slot; a user
 * at the cap is passed over for the next candidate.
 */
async function claimOnPostgres(store: Store, request: ClaimRequest): Promise<JobRow | undefined> {
  // A channel job has no cap to check: one statement claims it, without a transaction around it.
  const queued = await store.get<JobRow>(
    `UPDATE jobs SET ${CLAIMED}
     WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND kind = ANY(?::text[]) AND ${SETTINGS_MATCH} ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING ${JOB_COLUMNS}`,
    [request.now, request.owner, request.expires, request.kinds, request.settingsDigest],
  );
  if (queued) return queued;
  // Without a waiting task job, no transaction: a worker's empty claims cost one round trip each.
  const pending = await store.get<{ yes: boolean }>(`SELECT EXISTS (SELECT 1 FROM jobs WHERE state = 'pending' AND kind = ANY(?::text[]) AND ${SETTINGS_MATCH}) AS yes`, [request.kinds, request.settingsDigest]);
  if (!pending?.yes) return undefined;
  return store.transaction((tx) => claimPendingOnPostgres(tx, request));
}

async function claimPendingOnPostgres(tx: Transaction, request: ClaimRequest): Promise<JobRow | undefined> {
  const passedOver: number[] = [];
  for (;;) {
    const candidate = await tx.get<{ id: number; state: string; user_id: number; plan: string }>(
      `SELECT jobs.id, jobs.state, jobs.user_id, users.plan FROM jobs JOIN users ON users.id = jobs.user_id
       WHERE jobs.state = 'pending' AND jobs.kind = ANY(?::text[]) AND NOT (jobs.user_id = ANY(?::bigint[]))
         AND (jobs.settings_digest IS NULL OR jobs.settings_digest = ?)
       ORDER BY jobs.id LIMIT 1 FOR UPDATE OF jobs SKIP LOCKED`,
      [request.kinds, passedOver, request.settingsDigest],
    );
    if (!candidate) return undefined;
    const cap = request.caps[candidate.plan] ?? Number.MAX_SAFE_INTEGER;
    await tx.lock(`jobs:user:${candidate.user_id}`);
    const { n } = (await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM jobs WHERE user_id = ? AND state = 'processing'`, [candidate.user_id]))!;
    if (n >= cap) {
      // The user's other waiting jobs are no more claimable than this one.
      passedOver.push(candidate.user_id);
      continue;
    }
    return tx.get<JobRow>(`UPDATE jobs SET ${CLAIMED} WHERE id = ? RETURNING ${JOB_COLUMNS}`, [request.now, request.owner, request.expires, candidate.id]);
  }
}

/**
 * SQLite: whether a job could be claimed, and whether a lease ran out, in one read. Idle workers of
 * a data dir poll (other processes' submits send them nothing), and a read takes no write lock.
 */
export async function claimableOnSqlite(
  store: Store,
  kinds: string[],
  caps: Record<string, number>,
  now: number,
  settingsDigest: string | null,
): Promise<{ waiting: boolean; expired: boolean }> {
  const row = await store.get<{ waiting: number; expired: number }>(
    `SELECT EXISTS (SELECT 1 FROM jobs WHERE (${SQLITE_CLAIMABLE}) AND kind IN (SELECT value FROM json_each(?)) AND ${SETTINGS_MATCH}) AS waiting,
            EXISTS (SELECT 1 FROM jobs WHERE state IN ('running', 'processing') AND lease_expires_at <= ?) AS expired`,
    [JSON.stringify(caps), JSON.stringify(kinds), settingsDigest, now],
  );
  return { waiting: Boolean(row?.waiting), expired: Boolean(row?.expired) };
}

export interface FinishValues {
  state: string;
  result: string | null;
  error: string | null;
  now: number;
  id: number;
  owner: string;
}

/** Postgres: the finish's notification, sent only when a long-poll watches the job. */
const ANNOUNCED = `(CASE WHEN finished.watched THEN pg_notify(?, finished.id::text) END) IS NULL AS announced`;

const FINISH_UPDATE = `UPDATE jobs SET state = ?, result = ?, error = ?, finished_at = ?, lease_owner = NULL, lease_expires_at = NULL
  WHERE id = ? AND lease_owner = ? AND state IN ('running', 'processing')`;
const FINISH = `${FINISH_UPDATE} RETURNING ${JOB_COLUMNS}`;
/** Postgres's CTEs also return `watched`, which ANNOUNCED reads. */
const PG_JOB_COLUMNS = `${JOB_COLUMNS}, watched`;
const PG_FINISH = `${FINISH_UPDATE} RETURNING ${PG_JOB_COLUMNS}`;

/**
 * Writes a job's outcome while `owner` still holds it. On Postgres the notification to the fleet
 * (`<id>` on `channel`) goes in the same statement, sent when it commits, and only for a job a
 * long-poll watches (`watchJob`): PostgreSQL commits notifying transactions one at a time, so a
 * notification per job would make every worker of the fleet wait its turn. SQLite's notifications
 * stay in this process, so the caller announces it there.
 */
export function finishJob(on: Executor, values: FinishValues, channel: string): Promise<JobRow | undefined> {
  const params = [values.state, values.result, values.error, values.now, values.id, values.owner];
  if (on.dialect === 'sqlite') return on.get<JobRow>(FINISH, params);
  return on
    .get<JobRow & { announced?: unknown; watched?: unknown }>(`WITH finished AS (${PG_FINISH}) SELECT ${PG_JOB_COLUMNS}, ${ANNOUNCED} FROM finished`, [...params, channel])
    .then((row) => row && withoutPostgresColumns(row));
}

/**
 * A long-poll is about to wait on a job: on Postgres its finish will then be announced to the
 * fleet (true: marked, read the job again). Written before the waiter's next read of the job, so a finish either sees the mark (and
 * notifies) or committed before that read (which then sees it finished).
 */
export async function watchJob(store: Store, id: number): Promise<boolean> {
  if (store.dialect === 'sqlite') return false;
  await store.run('UPDATE jobs SET watched = true WHERE id = ? AND NOT watched', [id]);
  return true;
}

/** A row as SQLite returns it: without the columns only the Postgres statements use. */
function withoutPostgresColumns(row: JobRow & { announced?: unknown; watched?: unknown; which?: unknown }): JobRow {
  const { announced: _announced, watched: _watched, which: _which, ...job } = row;
  return job as JobRow;
}

/** `kind IN (…)` for the dialect, with its parameter. */
export function kindsIn(store: Store, kinds: readonly string[]): [string, SqlValue] {
  return store.dialect === 'postgres' ? ['kind = ANY(?::text[])', kinds] : ['kind IN (SELECT value FROM json_each(?))', JSON.stringify(kinds)];
}

export const claimFor = (store: Store) => (store.dialect === 'postgres' ? claimOnPostgres : claimOnSqlite);

/**
 * A worker's finish and its next claim of a channel job (no cap to check), together: one statement
 * on Postgres (two data-modifying CTEs; the finished job was running, so the claim cannot pick it),
 * one write transaction on SQLite. A busy worker so spends one round trip per job, not two.
 */
export async function finishAndClaimQueued(
  store: Store,
  values: FinishValues,
  next: ClaimRequest,
  channel: string,
): Promise<{ finished?: JobRow; claimed?: JobRow }> {
  const finishParams = [values.state, values.result, values.error, values.now, values.id, values.owner];
  if (store.dialect === 'sqlite') {
    return store.transaction(async (tx) => ({
      finished: await tx.get<JobRow>(FINISH, finishParams),
      claimed: await claimInSqliteTransaction(tx, next),
    }));
  }
  const rows = await store.all<JobRow & { which: 'finished' | 'claimed'; announced?: unknown; watched?: unknown }>(
    `WITH finished AS (${PG_FINISH}),
     claimed AS (UPDATE jobs SET ${CLAIMED}
                 WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND kind = ANY(?::text[]) AND ${SETTINGS_MATCH} ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                 RETURNING ${PG_JOB_COLUMNS})
     SELECT 'finished' AS which, ${PG_JOB_COLUMNS}, ${ANNOUNCED} FROM finished
     UNION ALL SELECT 'claimed', ${PG_JOB_COLUMNS}, NULL FROM claimed`,
    [...finishParams, next.now, next.owner, next.expires, next.kinds, next.settingsDigest, channel],
  );
  const found: { finished?: JobRow; claimed?: JobRow } = {};
  for (const row of rows) found[row.which] = withoutPostgresColumns(row);
  return found;
}
