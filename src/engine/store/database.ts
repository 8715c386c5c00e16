import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations, type Migration } from './migrations.js';

export type Db = Database.Database;

/**
 * Opens the engine database: WAL so readers never block the writer, a busy timeout so several
 * CLI processes and a server can share the file, foreign keys on, and pending migrations applied.
 */
export function openDatabase(file: string, options: { migrations?: Migration[] } = {}): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  migrate(db, options.migrations ?? migrations);
  return db;
}

function migrate(db: Db, list: Migration[]): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const pending = list.filter((migration) => migration.version > current).sort((a, b) => a.version - b.version);
  if (pending.length === 0) return;
  // IMMEDIATE takes the write lock first, so two processes opening a new data dir do not both migrate.
  const apply = db.transaction(() => {
    const seen = db.pragma('user_version', { simple: true }) as number;
    for (const migration of pending) {
      if (migration.version <= seen) continue;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }
  });
  apply.immediate();
}
