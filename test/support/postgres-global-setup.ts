/**
 * Vitest global setup: one PostgreSQL server for the whole run, with a migrated template database.
 * When it cannot start, the run goes on and every Postgres suite fails with the reason
 * (test/support/postgres.ts) — never skipped.
 */
import type { TestProject } from 'vitest/node';
import { openFleetStore } from '../../src/engine/store/open-store.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import { startPostgres, type PostgresServer } from './postgres-server.js';

export const TEMPLATE_DATABASE = 'tubekit_template';

export default async function setup(project: TestProject) {
  let server: PostgresServer | undefined;
  try {
    server = await startPostgres();
    const { default: pg } = await import('pg');
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
    await admin.end();
    const location = parseStoreLocation(`${server.baseUrl}/${TEMPLATE_DATABASE}`);
    if (location.kind !== 'postgres') throw new Error('unreachable');
    const opened = await openFleetStore(location, { migrations: 'apply' });
    await opened.store.close();
    project.provide('postgres', { baseUrl: server.baseUrl, adminUrl: server.adminUrl, template: TEMPLATE_DATABASE });
  } catch (error) {
    await server?.stop().catch(() => undefined);
    server = undefined;
    project.provide('postgres', { error: `PostgreSQL could not be started for the tests: ${(error as Error).message}` });
  }
  return async () => {
    await server?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: { baseUrl: string; adminUrl: string; template: string } | { error: string };
  }
}
