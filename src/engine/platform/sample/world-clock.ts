/**
 * The world's own clock. It starts at the end of the reference date (midnight UTC after it) and
 * moves only when `advance` moves it; the amount advanced so far is stored in world_meta, so every
 * process on the data dir sees the same world time. It is not the engine's wall clock
 * (`engine.clock`): see the world README.
 */
import type Database from 'better-sqlite3';
import { DAY_MS } from '../../dates.js';
import { MAX_ADVANCE_MS, MIN_ADVANCE_MS } from '../simulation.js';

export const CLOCK_META_KEY = 'clock';
export { MAX_ADVANCE_MS, MIN_ADVANCE_MS };

export interface WorldClockState {
  /** World time advanced since generation. */
  advanced_ms: number;
  /** Channels that appeared since the reference date. */
  arrived_channels: number;
  /** Videos published since the reference date. */
  published_uploads: number;
}

export const INITIAL_CLOCK: WorldClockState = { advanced_ms: 0, arrived_channels: 0, published_uploads: 0 };

/** Where the clock starts: the end of the reference day. */
export function originMs(refDay: number): number {
  return (refDay + 1) * DAY_MS;
}

export function parseClock(text: string | undefined): WorldClockState {
  return text ? { ...INITIAL_CLOCK, ...(JSON.parse(text) as Partial<WorldClockState>) } : { ...INITIAL_CLOCK };
}

export function writeClock(db: Database.Database, state: WorldClockState): void {
  db.prepare('INSERT INTO world_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
    CLOCK_META_KEY,
    JSON.stringify(state),
  );
}
