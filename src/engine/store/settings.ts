import type { Db } from './database.js';

/** Failures an engine can be told to inject, so every error branch of the spec can be exercised. */
export const FAULTS = [
  'alt-clone-upstream', // the alt provider refuses a clone → 502
  'alt-delete-upstream', // the alt provider fails to delete; the local delete still succeeds
  'speech-synthesis', // generation jobs fail, so `failed` with `error` can be seen
] as const;
export type Fault = (typeof FAULTS)[number];

/** Engine-wide settings (limit overrides, faults, world parameters), shared by every process. */
export class Settings {
  private readonly getStatement;
  private readonly setStatement;
  private readonly deleteStatement;

  constructor(db: Db) {
    this.getStatement = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.setStatement = db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
    this.deleteStatement = db.prepare('DELETE FROM settings WHERE key = ?');
  }

  get<T>(key: string): T | undefined {
    const row = this.getStatement.get(key);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    this.setStatement.run(key, JSON.stringify(value));
  }

  delete(key: string): void {
    this.deleteStatement.run(key);
  }

  /** Whether a fault is switched on (stored under "faults", so every process sharing the data dir sees it). */
  hasFault(fault: Fault): boolean {
    return (this.get<string[]>('faults') ?? []).includes(fault);
  }

  setFault(fault: Fault, on: boolean): void {
    const others = (this.get<string[]>('faults') ?? []).filter((name) => name !== fault);
    this.set('faults', on ? [...others, fault] : others);
  }
}
