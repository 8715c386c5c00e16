/**
 * The claim, the one statement of the queue that differs by dialect. Both take the oldest job of
 * the given kinds that may run now: channel jobs always; task jobs (generation, analysis) only
 * while their user has fewer than their plan's `concurrentJobs` processing.
 */
import type { SqlValue, Store, Transaction } from '../store/store.js';
import type { JobRow } from './job-row.js';

export interface ClaimRequest {
  owner: string;
  kinds: string[];
  /** Plan → cap of a user's task jobs processing at once. */
  caps: Record<string, number>;
  now: number;
  expires: number;
}

const CLAIMED = `state = CASE state WHEN 'queued' THEN 'running' ELSE 'processing' END,
  claimed_at = ?, attempts = attempts + 1, lease_owner = ?, lease_expires_at = ?`;

/** SQLite: one UPDATE in an IMMEDIATE transaction — the file's write lock makes it exclusive. */
const SQLITE_CLAIMABLE = `state = 'queued' OR (state = 'pending' AND
  (SELECT COUNT(*) FROM jobs AS busy WHERE busy.user_id = jobs.user_id AND busy.state = 'processing')
    < COALESCE((SELECT value FROM json_each(?) WHERE key = (SELECT plan FROM users WHERE users.id = jobs.user_id)), 1 << 30))`;

function claimOnSqlite(store: Store, request: ClaimRequest): Promise<JobRow | undefined> {
  return store.transaction((tx) => tx.get<JobRow>(
    `UPDATE jobs SET ${CLAIMED}
     WHERE id = (SELECT id FROM jobs WHERE (${SQLITE_CLAIMABLE})
                   AND kind IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT 1)
     RETURNING *`,
    [request.now, request.owner, request.expires, JSON.stringify(request.caps), JSON.stringify(request.kinds)],
  ));
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
     WHERE id = (SELECT id FROM jobs WHERE state = 'queued' AND kind = ANY(?::text[]) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [request.now, request.owner, request.expires, request.kinds],
  );
  if (queued) return queued;
  return store.transaction((tx) => claimPendingOnPostgres(tx, request));
}

async function claimPendingOnPostgres(tx: Transaction, request: ClaimRequest): Promise<JobRow | undefined> {
  const passedOver: number[] = [];
  for (;;) {
    const candidate = await tx.get<{ id: number; state: string; user_id: number; plan: string }>(
      `SELECT jobs.id, jobs.state, jobs.user_id, users.plan FROM jobs JOIN users ON users.id = jobs.user_id
       WHERE jobs.state = 'pending' AND jobs.kind = ANY(?::text[]) AND NOT (jobs.user_id = ANY(?::bigint[]))
       ORDER BY jobs.id LIMIT 1 FOR UPDATE OF jobs SKIP LOCKED`,
      [request.kinds, passedOver],
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
    return tx.get<JobRow>(`UPDATE jobs SET ${CLAIMED} WHERE id = ? RETURNING *`, [request.now, request.owner, request.expires, candidate.id]);
  }
}

/** Whether anything could be claimed or recovered now: idle workers poll, and a read costs no write lock. */
export async function anythingToClaim(store: Store, kinds: string[], caps: Record<string, number>, now: number): Promise<boolean> {
  const row =
    store.dialect === 'postgres'
      ? await store.get<{ yes: boolean }>(
          `SELECT (EXISTS (SELECT 1 FROM jobs WHERE state IN ('queued', 'pending') AND kind = ANY(?::text[]))
               OR EXISTS (SELECT 1 FROM jobs WHERE state IN ('running', 'processing') AND lease_expires_at <= ?)) AS yes`,
          [kinds, now],
        )
      : await store.get<{ yes: number }>(
          `SELECT EXISTS (SELECT 1 FROM jobs WHERE (${SQLITE_CLAIMABLE}) AND kind IN (SELECT value FROM json_each(?)))
               OR EXISTS (SELECT 1 FROM jobs WHERE state IN ('running', 'processing') AND lease_expires_at <= ?) AS yes`,
          [JSON.stringify(caps), JSON.stringify(kinds), now],
        );
  return Boolean(row?.yes);
}

/** `kind IN (…)` for the dialect, with its parameter. */
export function kindsIn(store: Store, kinds: readonly string[]): [string, SqlValue] {
  return store.dialect === 'postgres' ? ['kind = ANY(?::text[])', kinds] : ['kind IN (SELECT value FROM json_each(?))', JSON.stringify(kinds)];
}

export const claimFor = (store: Store) => (store.dialect === 'postgres' ? claimOnPostgres : claimOnSqlite);
