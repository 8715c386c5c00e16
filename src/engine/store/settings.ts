import type { Db } from './database.js';

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
}
