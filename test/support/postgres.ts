/**
 * A database of its own for a Postgres suite, on the run's one server (postgres-global-setup.ts):
 * copied from the migrated template, or empty (`{ migrated: false }`) for migration tests.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

export function postgresServer(): { baseUrl: string; adminUrl: string; template: string } {
  const provided = inject('postgres');
  // A Postgres suite fails here, loudly, rather than being skipped when the server is missing.
  if ('error' in provided) throw new Error(provided.error);
  return provided;
}

export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<string> {
  const server = postgresServer();
  const name = `t_${randomBytes(6).toString('hex')}`;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${options.migrated === false ? 'template0' : server.template}`);
  } finally {
    await admin.end();
  }
  return `${server.baseUrl}/${name}`;
}
