import { tooManyRequests, type ErrorCode } from '../../core/errors.js';
import type { Clock } from '../clock.js';
import type { Store, Transaction } from '../store/store.js';

export interface Refusal {
  message?: string;
  code?: ErrorCode;
  hint?: string;
}

/**
 * Sliding-window counters kept in the store, so a limit holds across every process and machine
 * sharing it. Check and record happen in one transaction that holds the bucket's lock.
 */
export class RateLimiter {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one event, or throws 429 when `limit` events already happened within `windowMs`.
   * `refusal` replaces the default message ("Rate limit exceeded (describe).") and code.
   * Inside a caller's transaction (`tx`: a job insert), the event is counted in it.
   */
  async take(userId: number, bucket: string, limit: number, windowMs: number, describe: string, refusal: Refusal = {}, tx?: Transaction): Promise<void> {
    if (!tx) return this.store.transaction((own) => this.take(userId, bucket, limit, windowMs, describe, refusal, own));
    await tx.lock(`rate:${userId}:${bucket}`);
    const now = this.clock.now();
    await tx.run('DELETE FROM rate_events WHERE user_id = ? AND bucket = ? AND at <= ?', [userId, bucket, now - windowMs]);
    const { n } = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM rate_events WHERE user_id = ? AND bucket = ?', [userId, bucket]))!;
    if (n >= limit) {
      // The window frees a slot when the oldest event that keeps it full expires.
      const blocking = await tx.get<{ at: number }>('SELECT at FROM rate_events WHERE user_id = ? AND bucket = ? ORDER BY at LIMIT 1 OFFSET ?', [userId, bucket, n - limit]);
      const waitMs = blocking ? blocking.at + windowMs - now : windowMs;
      throw tooManyRequests(refusal.message ?? `Rate limit exceeded (${describe}).`, waitMs / 1000, refusal.code, refusal.hint);
    }
    await tx.run('INSERT INTO rate_events (user_id, bucket, at) VALUES (?, ?, ?)', [userId, bucket, now]);
  }
}
