import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/engine/clock.js';
import { RateLimiter } from '../../../src/engine/limits/rate-limiter.js';
import { openDatabase } from '../../../src/engine/store/database.js';
import { SqliteStore } from '../../../src/engine/store/sqlite-store.js';

describe('RateLimiter', () => {
  const setup = () => {
    const clock = new ManualClock();
    const db = openDatabase(':memory:');
    db.prepare("INSERT INTO users (id, name, plan, created_at) VALUES (1, 'u', 'starter', 0), (2, 'v', 'starter', 0)").run();
    return { clock, limiter: new RateLimiter(new SqliteStore(db), clock) };
  };

  it('allows `limit` events per window, then answers 429 with the wait until a slot frees', async () => {
    const { clock, limiter } = setup();
    for (let index = 0; index < 3; index += 1) {
      await limiter.take(1, 'submit', 3, 60_000, '3/min');
      clock.advance(10_000);
    }
    let error: { status: number; retryAfterSeconds: number; message: string } | undefined;
    try {
      await limiter.take(1, 'submit', 3, 60_000, '3/min');
    } catch (caught) {
      error = caught as never;
    }
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 30 });
    expect(error!.message).toMatch(/Try again in 30s\.$/);
    clock.advance(30_000);
    await limiter.take(1, 'submit', 3, 60_000, '3/min');
  });

  it('counts per user and per bucket', async () => {
    const { limiter } = setup();
    await limiter.take(1, 'a', 1, 60_000, '1/min');
    await limiter.take(2, 'a', 1, 60_000, '1/min');
    await limiter.take(1, 'b', 1, 60_000, '1/min');
    await expect(limiter.take(1, 'a', 1, 60_000, '1/min')).rejects.toThrow(/Rate limit/);
  });
});
