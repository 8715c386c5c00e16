import type { Migration } from './migrations.js';
import type { PostgresStore } from './postgres-store.js';

/** Held while migrating, so processes of a fleet starting at once migrate one after another. */
const MIGRATION_LOCK = 7_419_331_227;

export interface MigrationReport {
  from: number;
  to: number;
  applied: { version: number; name: string }[];
}

/**
 * Applies the migrations the database has not recorded, each in its own transaction, under a
 * session advisory lock: a second process starting at the same moment waits, then finds nothing
 * left to do.
 */
export async function migratePostgres(store: PostgresStore, list: Migration[]): Promise<MigrationReport> {
  return store.withConnection(async (connection) => {
    await connection.run('SELECT pg_advisory_lock(?)', [MIGRATION_LOCK]);
    try {
      await connection.run('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      const done = new Set((await connection.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
      const from = Math.max(0, ...done);
      const applied: MigrationReport['applied'] = [];
      for (const migration of [...list].sort((a, b) => a.version - b.version)) {
        if (done.has(migration.version)) continue;
        await connection.run('BEGIN');
        try {
          await connection.run(migration.sql);
          await connection.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [migration.version, migration.name, Date.now()]);
          await connection.run('COMMIT');
        } catch (error) {
          await connection.run('ROLLBACK').catch(() => undefined);
          throw new Error(`Migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`, { cause: error });
        }
        applied.push({ version: migration.version, name: migration.name });
      }
      return { from, to: Math.max(from, ...applied.map((entry) => entry.version)), applied };
    } finally {
      await connection.run('SELECT pg_advisory_unlock(?)', [MIGRATION_LOCK]).catch(() => undefined);
    }
  });
}

/** Versions of `list` the database has not applied (all of them on an empty database). */
export async function pendingPostgresMigrations(store: PostgresStore, list: Migration[]): Promise<Migration[]> {
  const exists = await store.get<{ name: string | null }>("SELECT to_regclass('schema_migrations') AS name");
  if (!exists?.name) return [...list];
  const done = new Set((await store.all<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
  return list.filter((migration) => !done.has(migration.version));
}
