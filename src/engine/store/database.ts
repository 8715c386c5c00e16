import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { nameKey } from '../../core/name-key.js';
import { migrations, type Migration } from './migrations.js';
import { refuseNewerDatabase } from './newer-database.js';
import { ensurePrivateFile, tightenIfPresent } from './private-file.js';

export type Db = Database.Database;

/**
 * Opens the engine database: WAL so readers never block the writer, a busy timeout so several
 * CLI processes and a server can share the file, foreign keys on, and pending migrations applied.
 */
export function openDatabase(file: string, options: { migrations?: Migration[] } = {}): Db {
  if (file !== ':memory:') {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // SQLite gives the -wal and -shm files the mode of the database file, so 0600 here covers all three.
    ensurePrivateFile(file);
    for (const suffix of ['-wal', '-shm']) tightenIfPresent(`${file}${suffix}`);
  }
  const db = new Database(file, { nativeBinding: nativeBinding() });
  db.pragma('busy_timeout = 10000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.function('name_key', { deterministic: true }, (name: unknown) => (typeof name === 'string' ? nameKey(name) : null));
  // Read pages straight from the OS cache: searches over a big sample world (a million terminated
  // channels) touch far more pages than SQLite's own cache holds. An upper bound, not an allocation.
  if (file !== ':memory:') db.pragma('mmap_size = 1073741824');
  migrate(db, options.migrations ?? migrations);
  return db;
}

/**
 * The addon where npm builds or downloads it. Naming it skips the `bindings` package's search of a
 * dozen candidate paths on every start; elsewhere (an unusual build) that search runs as before.
 */
export function nativeBinding(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
  } catch {
    return undefined;
  }
}

/**
 * Applies every migration not yet recorded in `schema_migrations` — by version, not by a high-water
 * mark, so a migration that lands after a later-numbered one still reaches existing data dirs.
 * IMMEDIATE takes the write lock first, so two processes opening a new data dir do not both migrate.
 */
function migrate(db: Db, list: Migration[]): void {
  // Every command opens the database: one header read tells that nothing is pending.
  const stamp = schemaStamp(list);
  if (db.pragma('user_version', { simple: true }) === stamp) return;
  adoptUserVersion(db, list);
  const applied = () => new Set(db.prepare<[], { version: number }>('SELECT version FROM schema_migrations').all().map((row) => row.version));
  const sorted = [...list].sort((a, b) => a.version - b.version);
  const apply = db.transaction(() => {
    const done = applied();
    // Before anything is written (user_version included): a newer tubekit's database stays as it was.
    refuseNewerDatabase(`sqlite:${db.name}`, list, done);
    for (const migration of sorted) {
      if (done.has(migration.version)) continue;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, Date.now());
    }
    db.pragma(`user_version = ${stamp}`);
  });
  apply.immediate();
}

/**
 * The `user_version` of a database that has applied exactly `list`: a hash of its versions, with
 * bit 30 set so it never equals a legacy migration count (see adoptUserVersion). Adding a
 * migration changes the stamp, so the next open takes the full path and applies it.
 */
export function schemaStamp(list: Migration[]): number {
  let hash = 0x811c9dc5;
  for (const version of list.map((migration) => migration.version).sort((a, b) => a - b)) {
    hash = Math.imul(hash ^ version, 0x01000193) >>> 0;
  }
  return 0x40000000 | (hash & 0x3fffffff);
}

/**
 * Data dirs made before `schema_migrations` existed recorded progress in `user_version`:
 * count everything up to it as applied.
 */
function adoptUserVersion(db: Db, list: Migration[]): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (exists) return;
  const adopt = db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    const legacy = db.pragma('user_version', { simple: true }) as number;
    const record = db.prepare('INSERT OR IGNORE INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of list) if (migration.version <= legacy) record.run(migration.version, migration.name, Date.now());
  });
  adopt.immediate();
}
