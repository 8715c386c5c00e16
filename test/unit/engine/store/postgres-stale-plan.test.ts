/**
 * A rolling upgrade: a migration changes a table under a server whose connections hold prepared
 * statements. Statements selecting `*` are never prepared by name (their shape would change), and
 * a statement whose plan did go stale (`0A000 cached plan must not change result type`) is retried
 * once on a fresh connection, outside and inside a transaction, instead of failing the request.
 */
import pg from 'pg';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PostgresStore } from '../../../../src/engine/store/postgres-store.js';
import { createTestDatabase } from '../../../support/postgres.js';

let store: PostgresStore;
let url: string;

/** A change made by another process (a migration), on a connection of its own. */
async function elsewhere(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

beforeEach(async () => {
  url = await createTestDatabase({ migrated: false });
  await elsewhere('CREATE TABLE things (id INTEGER PRIMARY KEY, size INTEGER NOT NULL); INSERT INTO things VALUES (1, 10), (2, 20)');
  // One connection: every call reuses the statements it prepared.
  store = new PostgresStore(pg, url, 'test', 1);
});

afterEach(() => store.close());

it('answers a prepared statement whose result type a migration changed, outside a transaction', async () => {
  const read = 'SELECT size FROM things WHERE id = ?';
  expect(await store.get(read, [1])).toEqual({ size: 10 });
  await elsewhere('ALTER TABLE things ALTER COLUMN size TYPE BIGINT');
  expect(await store.get(read, [1])).toEqual({ size: 10 });
  expect(await store.get(read, [2])).toEqual({ size: 20 });
});

it('retries a transaction whose statement went stale, from the start', async () => {
  const read = 'SELECT size FROM things WHERE id = ?';
  let tries = 0;
  const bump = () =>
    store.transaction(async (tx) => {
      tries += 1;
      const row = await tx.get<{ size: number }>(read, [1]);
      await tx.run('UPDATE things SET size = ? WHERE id = 1', [row!.size + 1]);
      return row!.size;
    });
  expect(await bump()).toBe(10);
  await elsewhere('ALTER TABLE things ALTER COLUMN size TYPE BIGINT');
  expect(await bump()).toBe(11);
  expect(tries).toBe(3);
  expect(await store.get(read, [1])).toEqual({ size: 12 });
});

it('keeps answering `SELECT *` with the new column after a migration adds one', async () => {
  expect(await store.get('SELECT * FROM things WHERE id = ?', [1])).toEqual({ id: 1, size: 10 });
  await elsewhere("ALTER TABLE things ADD COLUMN label TEXT NOT NULL DEFAULT 'x'");
  expect(await store.get('SELECT * FROM things WHERE id = ?', [1])).toEqual({ id: 1, size: 10, label: 'x' });
  expect(await store.get('SELECT t.* FROM things t WHERE id = ?', [2])).toEqual({ id: 2, size: 20, label: 'x' });
});

it('still fails a statement that is wrong for another reason', async () => {
  await expect(store.get('SELECT nothing FROM things')).rejects.toMatchObject({ code: '42703' });
});
