/**
 * The store interface's promises, held by both implementations: the data dir's SQLite file and
 * a real PostgreSQL server (test/support/postgres.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../../src/engine/store/database.js';
import { openFleetStore } from '../../../../src/engine/store/open-store.js';
import { SqliteStore } from '../../../../src/engine/store/sqlite-store.js';
import { parseStoreLocation } from '../../../../src/engine/store/store-location.js';
import type { Store } from '../../../../src/engine/store/store.js';
import { tempDataDir } from '../../../support/engines.js';
import { createTestDatabase } from '../../../support/postgres.js';

const stores: Record<string, () => Promise<{ store: Store; close: () => Promise<void> }>> = {
  sqlite: async () => {
    const dir = tempDataDir();
    const store = new SqliteStore(openDatabase(path.join(dir, 'tubekit.db')));
    return { store, close: async () => { await store.close(); fs.rmSync(dir, { recursive: true, force: true }); } };
  },
  postgres: async () => {
    const location = parseStoreLocation(await createTestDatabase());
    const { store } = await openFleetStore(location as never, { migrations: 'apply' });
    return { store, close: () => store.close() };
  },
};

for (const [name, open] of Object.entries(stores)) {
  describe(`the ${name} store`, () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
      await store.run('CREATE TABLE contract_items (owner TEXT NOT NULL, n INTEGER NOT NULL, label TEXT)');
    });
    afterAll(async () => close?.());

    it('takes ? placeholders and leaves question marks in strings alone', async () => {
      await store.run("INSERT INTO contract_items (owner, n, label) VALUES (?, ?, 'what?')", ['a', 1]);
      const row = await store.get<{ n: number; label: string }>('SELECT n, label FROM contract_items WHERE owner = ?', ['a']);
      expect(row).toEqual({ n: 1, label: 'what?' });
    });

    it('answers counts and big integers as numbers', async () => {
      const row = await store.get<{ n: number; big: number }>('SELECT COUNT(*) AS n, CAST(? AS BIGINT) AS big FROM contract_items', [1_700_000_000_000]);
      expect(row).toEqual({ n: 1, big: 1_700_000_000_000 });
    });

    it('rolls a transaction back whole when its work throws', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.run('INSERT INTO contract_items (owner, n) VALUES (?, ?)', ['rollback', 1]);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await store.get('SELECT * FROM contract_items WHERE owner = ?', ['rollback'])).toBeUndefined();
    });

    it('holds a cap of 3 under 20 concurrent check-and-insert transactions', async () => {
      const attempt = (i: number) =>
        store.transaction(
          async (tx) => {
            const { n } = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM contract_items WHERE owner = ?', ['capped']))!;
            // A pause between the check and the insert, where another transaction would slip in.
            await new Promise((resolve) => setTimeout(resolve, 5));
            if (n >= 3) return false;
            await tx.run('INSERT INTO contract_items (owner, n) VALUES (?, ?)', ['capped', i]);
            return true;
          },
          { locks: ['cap:capped'] },
        );
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i)));
      expect(results.filter(Boolean)).toHaveLength(3);
      expect((await store.get<{ n: number }>('SELECT COUNT(*) AS n FROM contract_items WHERE owner = ?', ['capped']))!.n).toBe(3);
    });

    it('delivers a notification to a listener', async () => {
      const heard = new Promise<string>((resolve) => void store.listen('contract_channel', resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
      await store.notify('contract_channel', 'hello');
      expect(await heard).toBe('hello');
    });
  });
}

describe('two Postgres stores on one database (two machines)', () => {
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase({ migrated: false });
  });

  it('migrate once when several processes start at the same moment', async () => {
    const location = parseStoreLocation(url) as never;
    const opened = await Promise.all([1, 2, 3].map(() => openFleetStore(location, { migrations: 'apply' })));
    const applied = opened.map((entry) => entry.migration!.applied.length).sort();
    expect(applied.filter((n) => n > 0)).toHaveLength(1);
    const versions = await Promise.all(opened.map((entry) => entry.store.schemaVersion()));
    expect(new Set(versions).size).toBe(1);
    expect(versions[0]).toBeGreaterThan(0);
    await Promise.all(opened.map((entry) => entry.store.close()));
  });

  it("hear each other's notifications and see each other's settings", async () => {
    const location = parseStoreLocation(url) as never;
    const [a, b] = await Promise.all([openFleetStore(location, { migrations: 'require' }), openFleetStore(location, { migrations: 'require' })]);
    const heard = new Promise<string>((resolve) => void b.store.listen('fleet_channel', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await a.store.notify('fleet_channel', 'from a');
    expect(await heard).toBe('from a');
    await a.settings.set('contract-setting', { n: 7 });
    const deadline = Date.now() + 2_000;
    while (b.settings.get('contract-setting') === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(b.settings.get('contract-setting')).toEqual({ n: 7 });
    await Promise.all([a.store.close(), b.store.close()]);
  });

  it("keeps this process's own latest setting while older notifications of its earlier ones arrive", async () => {
    const { settings, store } = await openFleetStore(parseStoreLocation(url) as never, { migrations: 'require' });
    const saved: Promise<void>[] = [];
    for (let round = 0; round < 20; round += 1) {
      saved.push(settings.set('race', round));
      // Read at once and over the next few milliseconds, as a job starting right after would.
      expect(settings.get('race')).toBe(round);
      await new Promise((resolve) => setTimeout(resolve, round % 3));
      expect(settings.get('race')).toBe(round);
    }
    await Promise.all(saved);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settings.get('race')).toBe(19);
    expect(await store.get('SELECT value FROM settings WHERE key = ?', ['race'])).toEqual({ value: '19' });
    await store.close();
  });

  it('refuses to run on a database that lacks migrations, saying how to migrate', async () => {
    const empty = parseStoreLocation(await createTestDatabase({ migrated: false })) as never;
    await expect(openFleetStore(empty, { migrations: 'require' })).rejects.toMatchObject({ code: 'store_not_migrated', hint: expect.stringMatching(/tubekit engine migrate/) });
  });

  it('answers 503 with a clear error when the database cannot be reached', async () => {
    const gone = parseStoreLocation('postgres://postgres@127.0.0.1:1/nothing') as never;
    await expect(openFleetStore(gone, { migrations: 'require' })).rejects.toMatchObject({ status: 503, code: 'store_unavailable' });
  });
});
