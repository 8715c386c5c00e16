/**
 * Remembered reads on PostgreSQL: two engines (two machines) on one database. A folder list is
 * answered from memory until a workspace write — this process's at once, another machine's when
 * its notification arrives.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../../src/engine/engine.js';
import type { Principal } from '../../../../src/engine/identity/identity.js';
import { openEngine } from '../../../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../../../src/engine/store/store-location.js';
import { tempDataDir } from '../../../support/engines.js';
import { createTestDatabase } from '../../../support/postgres.js';

describe('remembered reads on PostgreSQL, two machines', () => {
  const engines: Engine[] = [];
  const dirs: string[] = [];
  let user: Principal;
  beforeAll(async () => {
    const store = parseStoreLocation(await createTestDatabase());
    for (let machine = 0; machine < 2; machine += 1) {
      const dataDir = tempDataDir();
      dirs.push(dataDir);
      engines.push(await openEngine({ dataDir, store, jobRunner: { mode: 'none' } }));
    }
    const { key } = await engines[0]!.identity.createUserWithKey('ultimate', []);
    user = await engines[0]!.authenticate(key);
  });
  afterAll(async () => {
    for (const engine of engines) await engine.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const names = async (engine: Engine) => (await engine.handle('folders.list', {}, user)).folders.map((folder) => folder.name);

  async function eventually(check: () => Promise<boolean>): Promise<void> {
    for (let tries = 0; tries < 200 && !(await check()); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  it('answers from memory until a workspace write, on this machine at once and on another once notified', async () => {
    const [first, second] = engines as [Engine, Engine];
    // The first look starts the LISTEN; once it is up, lists are remembered.
    for (const engine of engines) {
      await eventually(async () => {
        await names(engine);
        return (engine.store as unknown as { hearsNotifications: boolean }).hearsNotifications;
      });
    }
    // (The LISTEN coming up moves the signal once more.)
    for (const engine of engines) await names(engine);
    await first.handle('folders.create', { name: 'Ideas' }, user);
    // A write through the engine is seen by this machine with no wait…
    expect(await names(first)).toEqual(['Ideas']);
    // …and by the other machine when its notification arrives.
    await eventually(async () => (await names(second)).length === 1);
    expect(await names(second)).toEqual(['Ideas']);
    // (That list may have been read before the notification came: let it come.)
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await names(second)).toEqual(['Ideas']);

    // A row written behind the engine's back (no change announced) is not seen: the list is remembered.
    await second.store.run('INSERT INTO folders (user_id, name, name_key, created_at) VALUES (?, ?, ?, ?)', [user.userId, 'Hidden', 'hidden', Date.now()]);
    expect(await names(second)).toEqual(['Ideas']);
    expect(await names(first)).toEqual(['Ideas']);
    // Announced by either machine, the change reaches both.
    await first.store.changed('workspace');
    expect(await names(first)).toEqual(['Ideas', 'Hidden']);
    await eventually(async () => (await names(second)).length === 2);
    expect(await names(second)).toEqual(['Ideas', 'Hidden']);
  });
});
