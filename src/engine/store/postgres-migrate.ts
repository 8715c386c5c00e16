import type { Migration } from './migrations.js';
import { refuseNewerDatabase } from './newer-database.js';
import type { PostgresStore } from './postgres-store.js';
import type { Executor } from './store.js';

/** Held while migrating, so processes of a fleet starting at once migrate one after another. */
const MIGRATION_LOCK = 7_419_331_227;

export interface MigrationReport {
  from: number;
  to: number;
  applied: { version: number; name: string }[];
  /** Whether the step run after the migrations (`then`) made something, such as the operator account. */
  made?: boolean;
}

/**
 * Applies the migrations the database has not recorded, each in its own transaction (unless it
 * says otherwise), under a session advisory lock: a second process starting at the same moment
 * waits, then finds nothing left to do. A database of a newer tubekit is refused untouched.
 * `onlyIfEmpty`: applies nothing to a database that has any migration already. `then` runs under
 * the same lock after the migrations (skipped with them by `onlyIfEmpty`): what the schema's maker
 * must make once, such as the operator account.
 */
export async function migratePostgres(
  store: PostgresStore,
  list: Migration[],
  options: { onlyIfEmpty?: boolean; then?: (connection: Executor) => Promise<boolean> } = {},
): Promise<MigrationReport> {
  return store.withConnection(async (connection) => {
    await connection.run('SELECT pg_advisory_lock(?)', [MIGRATION_LOCK]);
    try {
      await connection.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      const done = new Set((await connection.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
      const from = Math.max(0, ...done);
      const applied: MigrationReport['applied'] = [];
      refuseNewerDatabase(store.description, list, done);
      // Decided under the lock: a server starting while another migrates an empty database waits, then finds it done.
      if (options.onlyIfEmpty && done.size > 0) return { from, to: from, applied };
      for (const migration of [...list].sort((a, b) => a.version - b.version)) {
        if (done.has(migration.version)) continue;
        if (migration.transactional === false) await applyStatementByStatement(connection, migration);
        else await applyInTransaction(connection, migration);
        applied.push({ version: migration.version, name: migration.name });
      }
      const made = (await options.then?.(connection)) ?? false;
      return { from, to: Math.max(from, ...applied.map((entry) => entry.version)), applied, made };
    } finally {
      await connection.run('SELECT pg_advisory_unlock(?)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  });
}

const record = (connection: Executor, migration: Migration) =>
  connection.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [migration.version, migration.name, Date.now()]);

async function applyInTransaction(connection: Executor, migration: Migration): Promise<void> {
  await connection.run('BEGIN');
  try {
    await connection.run(migration.sql);
    await record(connection, migration);
    await connection.run('COMMIT');
  } catch (error) {
    await connection.run('ROLLBACK').catch(() => undefined);
    throw new Error(`Migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error });
  }
}

/** A non-transactional migration: each statement on its own (PostgreSQL runs a multi-statement text as one transaction). */
async function applyStatementByStatement(connection: Executor, migration: Migration): Promise<void> {
  const statements = migration.sql
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter(Boolean);
  for (const [index, statement] of statements.entries()) {
    try {
      await connection.run(statement);
    } catch (error) {
      throw new Error(
        `Migration ${migration.version} (${migration.name}) failed at its statement ${index + 1} of ${statements.length}, outside a transaction (the ones before it stay applied; run engine migrate again once the cause is fixed): ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  await record(connection, migration);
}

/** Versions of `list` the database has not applied (all of them on an empty database). */
export async function pendingPostgresMigrations(store: PostgresStore, list: Migration[]): Promise<Migration[]> {
  const exists = await store.get<{ name: string | null }>("SELECT to_regclass('schema_migrations') AS name");
  if (!exists?.name) return [...list];
  const done = new Set((await store.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
  refuseNewerDatabase(store.description, list, done);
  return list.filter((migration) => !done.has(migration.version));
}
