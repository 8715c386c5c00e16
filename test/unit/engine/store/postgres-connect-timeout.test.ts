/**
 * A connection's timeout timer also fires when the event loop was held by long synchronous work
 * (a sample world generated, an alert cycle) while the connection was being made: that says nothing
 * of the database. The Postgres store tries such a connection once more instead of answering 503,
 * while a database that is really not there still fails.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { PostgresStore } from '../../../../src/engine/store/postgres-store.js';
import { createTestDatabase } from '../../../support/postgres.js';

const CONNECT_TIMEOUT_MS = 150;
let store: PostgresStore | undefined;

afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** Holds the event loop, as generating a world does. */
function busyFor(ms: number): void {
  for (const end = Date.now() + ms; Date.now() < end; );
}

it('answers queries and transactions whose connections timed out only because the event loop was held', async () => {
  const url = await createTestDatabase();
  store = new PostgresStore(pg, url, 'test', 10, CONNECT_TIMEOUT_MS);
  // Every one needs a connection of its own, being made while the loop is held past the timeout.
  const queries = Array.from({ length: 6 }, (_, i) => store!.get<{ n: number }>('SELECT ?::int AS n', [i]));
  const transactions = Array.from({ length: 3 }, (_, i) => store!.transaction((tx) => tx.get<{ n: number }>('SELECT ?::int AS n', [10 + i])));
  busyFor(CONNECT_TIMEOUT_MS * 4);
  expect((await Promise.all(queries)).map((row) => row!.n)).toEqual([0, 1, 2, 3, 4, 5]);
  expect((await Promise.all(transactions)).map((row) => row!.n)).toEqual([10, 11, 12]);
});

it('still answers 503 when the database is not there', async () => {
  store = new PostgresStore(pg, 'postgres://nobody@127.0.0.1:1/none', 'nowhere', 2, CONNECT_TIMEOUT_MS);
  await expect(store.get('SELECT 1')).rejects.toMatchObject({ status: 503, code: 'store_unavailable' });
  await expect(store.transaction((tx) => tx.get('SELECT 1'))).rejects.toMatchObject({ status: 503, code: 'store_unavailable' });
});
