/**
 * Migration discipline on PostgreSQL: a migration may run outside a transaction, statement by
 * statement (`CREATE INDEX CONCURRENTLY`, which PostgreSQL refuses inside one), and a database a
 * newer tubekit migrated is refused untouched, by `engine migrate` and by every opening alike.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import type { Migration } from '../../../../src/engine/store/migrations.js';
import { migratePostgres, pendingPostgresMigrations } from '../../../../src/engine/store/postgres-migrate.js';
import { PostgresStore } from '../../../../src/engine/store/postgres-store.js';
import { createTestDatabase } from '../../../support/postgres.js';

let store: PostgresStore;
afterEach(() => store?.close());

const open = async () => (store = new PostgresStore(pg, await createTestDatabase({ migrated: false }), 'the test database'));

const base: Migration[] = [{ version: 1, name: 'things', sql: 'CREATE TABLE things (id INTEGER PRIMARY KEY, size INTEGER)' }];
const concurrentIndex = (transactional?: false): Migration => ({
  version: 2,
  name: 'things by size',
  sql: `-- Built without blocking writes to a big table.
    CREATE INDEX CONCURRENTLY IF NOT EXISTS things_by_size ON things(size);
    CREATE INDEX CONCURRENTLY IF NOT EXISTS things_by_both ON things(size, id);`,
  ...(transactional === false ? { transactional } : {}),
});

it('applies a non-transactional migration statement by statement', async () => {
  await open();
  const report = await migratePostgres(store, [...base, concurrentIndex(false)]);
  expect(report.applied.map((entry) => entry.name)).toEqual(['things', 'things by size']);
  const indexes = await store.all<{ indexname: string }>("SELECT indexname FROM pg_indexes WHERE tablename = 'things' ORDER BY indexname");
  expect(indexes.map((row) => row.indexname)).toEqual(['things_by_both', 'things_by_size', 'things_pkey']);
  expect(await store.schemaVersion()).toBe(2);
});

it('fails the same migration inside a transaction, recording nothing', async () => {
  await open();
  await expect(migratePostgres(store, [...base, concurrentIndex()])).rejects.toThrow(/Migration 2 \(things by size\) failed: CREATE INDEX CONCURRENTLY cannot run inside a transaction block/);
  expect(await store.schemaVersion()).toBe(1);
});

it('refuses a database a newer tubekit migrated, applying nothing', async () => {
  await open();
  await migratePostgres(store, [...base, { version: 3, name: 'newer', sql: 'CREATE TABLE newer (x INTEGER)' }]);
  const older = [...base, concurrentIndex(false)];
  const refusal = { status: 503, code: 'store_too_new', message: 'The database the test database was migrated by a newer version of tubekit (migration 3 unknown to this one).' };
  await expect(migratePostgres(store, older)).rejects.toMatchObject(refusal);
  await expect(pendingPostgresMigrations(store, older)).rejects.toMatchObject(refusal);
  expect(await store.get("SELECT to_regclass('things_by_size') AS name")).toEqual({ name: null });
});
