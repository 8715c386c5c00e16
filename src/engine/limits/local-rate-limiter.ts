import { tooManyRequests, type ErrorCode } from '../../core/errors.js';
import type { Clock } from '../clock.js';
import type { Db } from '../store/database.js';

/**
 * The rate limiter for areas whose state still lives in the data dir's SQLite file (the channel
 * checks), called inside their synchronous transactions: same table, same rules as RateLimiter,
 * but it holds only across the processes of one data dir. It goes away when they move to the store.
 */
export class LocalRateLimiter {
  private readonly prune;
  private readonly count;
  private readonly oldest;
  private readonly record;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.prune = db.prepare('DELETE FROM rate_events WHERE user_id = ? AND bucket = ? AND at <= ?');
    this.count = db.prepare<[number, string], { n: number }>(
      'SELECT COUNT(*) AS n FROM rate_events WHERE user_id = ? AND bucket = ?',
    );
    this.oldest = db.prepare<[number, string, number], { at: number }>(
      'SELECT at FROM rate_events WHERE user_id = ? AND bucket = ? ORDER BY at LIMIT 1 OFFSET ?',
    );
    this.record = db.prepare('INSERT INTO rate_events (user_id, bucket, at) VALUES (?, ?, ?)');
  }

  /**
   * Counts one event, or throws 429 when `limit` events already happened within `windowMs`.
   * `refusal` replaces the default message ("Rate limit exceeded (describe).") and code.
   */
  take(
    userId: number,
    bucket: string,
    limit: number,
    windowMs: number,
    describe: string,
    refusal: { message?: string; code?: ErrorCode; hint?: string } = {},
  ): void {
    const attempt = this.db.transaction(() => {
      const now = this.clock.now();
      this.prune.run(userId, bucket, now - windowMs);
      const { n } = this.count.get(userId, bucket)!;
      if (n >= limit) {
        // The window frees a slot when the oldest event that keeps it full expires.
        const blocking = this.oldest.get(userId, bucket, n - limit);
        const waitMs = blocking ? blocking.at + windowMs - now : windowMs;
        throw tooManyRequests(refusal.message ?? `Rate limit exceeded (${describe}).`, waitMs / 1000, refusal.code, refusal.hint);
      }
      this.record.run(userId, bucket, now);
    });
    attempt.immediate();
  }
}
