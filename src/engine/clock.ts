/** All engine time goes through a clock so tests can move time instead of waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2026, 10, 21, 12, 0, 0)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

export const isoTime = (ms: number): string => new Date(ms).toISOString();
/** `2026-11-21T12:00:00` — UTC without a timezone suffix, as the hosted service lists folders. */
export const naiveTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19);
