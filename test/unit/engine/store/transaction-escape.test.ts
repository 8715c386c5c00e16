/**
 * Inside `store.transaction`, a call on the store instead of the transaction's executor is a bug:
 * on SQLite it would wait for ever (the transaction holds the one connection), on Postgres it would
 * run on another connection, outside the transaction. Both stores refuse it at once with an error
 * that says what to do, and the transaction rolls back; work the transaction left running after it
 * ended, and calls on another store, are not refused.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/engine/store/database.js';
import { PostgresStore } from '../../../../src/engine/store/postgres-store.js';
import { SqliteStore } from '../../../../src/engine/store/sqlite-store.js';
import type { Store } from '../../../../src/engine/store/store.js';
import { createTestDatabase } from '../../../support/postgres.js';

const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

const openers: Record<'sqlite' | 'postgres', () => Promise<Store>> = {
  sqlite: async () => new SqliteStore(openDatabase(':memory:')),
  postgres: async () => new PostgresStore(pg, await createTestDatabase(), 'test'),
};

const ESCAPED = /store\.(get|all|run|transaction).*was called inside store\.transaction on the same store: inside a transaction, use its executor \(the tx argument\)/;

describe.each(['sqlite', 'postgres'] as const)('a transaction on %s', (dialect) => {
  const open = async () => {
    const store = await openers[dialect]();
    opened.push(store);
    await store.run("INSERT INTO settings (key, value) VALUES ('probe', 'before')");
    return store;
  };
  const probe = async (store: Store) => (await store.get<{ value: string }>("SELECT value FROM settings WHERE key = 'probe'"))?.value;

  it('refuses a read or write on the store instead of tx, naming the statement, and rolls back', async () => {
    const store = await open();
    for (const escape of [
      () => store.get("SELECT value FROM settings WHERE key = 'probe'"),
      () => store.all('SELECT key FROM settings'),
      () => store.run("UPDATE settings SET value = 'outside' WHERE key = 'probe'"),
    ]) {
      const attempt = store.transaction(async (tx) => {
        await tx.run("UPDATE settings SET value = 'inside' WHERE key = 'probe'");
        return escape();
      });
      await expect(attempt).rejects.toThrow(ESCAPED);
      expect(await probe(store)).toBe('before');
    }
    await expect(store.transaction(() => store.get('SELECT 1 AS one'))).rejects.toThrow(/store\.get \(SELECT 1 AS one\) was called inside/);
  });

  it('refuses a transaction opened inside another on the same store', async () => {
    const store = await open();
    await expect(store.transaction(() => store.transaction((inner) => inner.get('SELECT 1 AS one')))).rejects.toThrow(/store\.transaction was called inside store\.transaction/);
  });

  it('lets tx do the work, the store answer afterwards, and work left running after the transaction use the store', async () => {
    const store = await open();
    let later: Promise<string | undefined> | undefined;
    await store.transaction(async (tx) => {
      await tx.run("UPDATE settings SET value = 'committed' WHERE key = 'probe'");
      later = sleep(20).then(() => probe(store));
    });
    expect(await probe(store)).toBe('committed');
    expect(await later).toBe('committed');
  });

  it('lets a transaction of one store call another store', async () => {
    const store = await open();
    const other = await open();
    const read = await store.transaction(async () => probe(other));
    expect(read).toBe('before');
  });
});
