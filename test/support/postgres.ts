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

/**
 * A database of its own. `unicodeLocale`: in the C.UTF-8 locale instead of the server's C, so
 * lower(), ILIKE and collations treat letters beyond ASCII as a real deployment's would (migrated
 * here, since the template is in C).
 */
export async function createTestDatabase(options: { migrated?: boolean; unicodeLocale?: boolean } = {}): Promise<string> {
  const server = postgresServer();
  const name = `t_${randomBytes(6).toString('hex')}`;
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  try {
    const template = options.migrated === false || options.unicodeLocale ? 'template0' : server.template;
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}${options.unicodeLocale ? " ENCODING 'UTF8' LOCALE 'C.UTF-8'" : ''}`);
  } finally {
    await admin.end();
  }
  const url = `${server.baseUrl}/${name}`;
  if (options.unicodeLocale && options.migrated !== false) {
    const { openFleetStore } = await import('../../src/engine/store/open-store.js');
    const { store } = await openFleetStore({ kind: 'postgres', url, description: name }, { migrations: 'apply' });
    await store.close();
  }
  return url;
}
