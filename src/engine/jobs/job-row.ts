/**
 * A row of the `jobs` table and the state words of the two job families. Channel jobs say
 * queued/running, task jobs (generation, analysis) pending/processing, as the spec and the hosted
 * service do; both end in completed or failed. The queue stores the family's own words so a row
 * can be answered without translation.
 */
export type JobFamily = 'channel' | 'task';

export interface FamilyStates {
  waiting: string;
  active: string;
}

export const familyStates: Record<JobFamily, FamilyStates> = {
  channel: { waiting: 'queued', active: 'running' },
  task: { waiting: 'pending', active: 'processing' },
};

export const isWaiting = (state: string): boolean => state === 'queued' || state === 'pending';
export const isTerminal = (state: string): boolean => state === 'completed' || state === 'failed';

/** The stored row, as SQLite returns it (times are epoch milliseconds). */
export interface JobRow {
  id: number;
  /** The task family's string id; null for channel jobs, which are known by `id`. */
  public_id: string | null;
  kind: string;
  user_id: number;
  state: string;
  /** JSON of what the submitter asked for. */
  input: string;
  /** JSON of what the processor returned; set once completed. */
  result: string | null;
  error: string | null;
  idempotency_key: string | null;
  /** Claims so far, including the current one. */
  attempts: number;
  requested_at: number;
  claimed_at: number | null;
  finished_at: number | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
}

/**
 * The columns of a JobRow, named: a statement prepared on a connection keeps its result's shape,
 * so a column added by a later migration must not change what an old server's statements return.
 */
export const JOB_COLUMNS =
  'id, public_id, kind, user_id, state, input, result, error, idempotency_key, attempts, requested_at, claimed_at, finished_at, lease_owner, lease_expires_at';

/** A row with its JSON parsed, as processors and views see it. */
export interface Job<Input = Record<string, unknown>, Output = Record<string, unknown>> {
  id: number;
  publicId: string | null;
  kind: string;
  userId: number;
  state: string;
  input: Input;
  output: Output | null;
  error: string | null;
  attempts: number;
  requestedAt: number;
  claimedAt: number | null;
  finishedAt: number | null;
}

export function toJob<Input, Output>(row: JobRow): Job<Input, Output> {
  return {
    id: row.id,
    publicId: row.public_id,
    kind: row.kind,
    userId: row.user_id,
    state: row.state,
    input: JSON.parse(row.input) as Input,
    output: row.result === null ? null : (JSON.parse(row.result) as Output),
    error: row.error,
    attempts: row.attempts,
    requestedAt: row.requested_at,
    claimedAt: row.claimed_at,
    finishedAt: row.finished_at,
  };
}

/**
 * A failed job's message under both names: the spec's `error`, and `error_message`, which the
 * hosted service also sends and most of its public clients read first.
 */
export function failedJobFields(error: string | null): { error: string; error_message: string } {
  const message = error ?? 'The job failed.';
  return { error: message, error_message: message };
}
