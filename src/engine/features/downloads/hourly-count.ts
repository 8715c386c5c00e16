/**
 * The hourly download cap's count: one `rate_events` row (bucket `download`) per 200 answer,
 * cached ones included, per user — whichever key the user called with.
 */
import type { Clock } from '../../clock.js';
import type { Db } from '../../store/database.js';

export const HOUR_MS = 3600 * 1000;
const BUCKET = 'download';

export class HourlyDownloads {
  private readonly prune;
  private readonly times;
  private readonly insert;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.prune = db.prepare('DELETE FROM rate_events WHERE user_id = ? AND bucket = ? AND at <= ?');
    this.times = db.prepare<[number, string], { at: number }>('SELECT at FROM rate_events WHERE user_id = ? AND bucket = ? ORDER BY at');
    this.insert = db.prepare('INSERT INTO rate_events (user_id, bucket, at) VALUES (?, ?, ?)');
  }

  /** Times of the user's downloads within the last hour, oldest first (inside a write transaction). */
  recent(userId: number): number[] {
    this.prune.run(userId, BUCKET, this.clock.now() - HOUR_MS);
    return this.times.all(userId, BUCKET).map((row) => row.at);
  }

  record(userId: number): void {
    this.insert.run(userId, BUCKET, this.clock.now());
  }
}
