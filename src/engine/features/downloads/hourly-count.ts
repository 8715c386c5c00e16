/**
 * The hourly download cap's count: one `rate_events` row (bucket `download`) per 200 answer,
 * cached ones included, per user — whichever key the user called with.
 */
import type { Clock } from '../../clock.js';
import type { Executor } from '../../store/store.js';

export const HOUR_MS = 3600 * 1000;
const BUCKET = 'download';

export class HourlyDownloads {
  constructor(private readonly clock: Clock) {}

  /** Times of the user's downloads within the last hour, oldest first (inside a write transaction). */
  async recent(on: Executor, userId: number): Promise<number[]> {
    await on.run('DELETE FROM rate_events WHERE user_id = ? AND bucket = ? AND at <= ?', [userId, BUCKET, this.clock.now() - HOUR_MS]);
    return (await on.all<{ at: number }>('SELECT at FROM rate_events WHERE user_id = ? AND bucket = ? ORDER BY at', [userId, BUCKET])).map((row) => row.at);
  }

  async record(on: Executor, userId: number): Promise<void> {
    await on.run('INSERT INTO rate_events (user_id, bucket, at) VALUES (?, ?, ?)', [userId, BUCKET, this.clock.now()]);
  }
}
