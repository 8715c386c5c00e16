/**
 * On a fleet's PostgreSQL store too, the sample world is loaded on first use: a call that reads no
 * channel (`folders list`) loads none of its code, reads nothing of the fleet's world (its row is
 * not even made) and builds no world tables in the data dir. The first read of the platform makes
 * the fleet's row from the data dir's parameters and brings the data dir's copy to it.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Engine } from '../../../src/engine/engine.js';
import { LocalService } from '../../../src/engine/local-service.js';
import { openEngine } from '../../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../../src/engine/store/store-location.js';
import { tempDataDir } from '../../support/engines.js';
import { createTestDatabase } from '../../support/postgres.js';

const loaded = vi.hoisted(() => new Set<string>());
vi.mock('../../../src/engine/platform/sample/sample-world.js', async (importOriginal) => {
  loaded.add('sample-world');
  return importOriginal();
});
vi.mock('../../../src/engine/platform/sample/generate.js', async (importOriginal) => {
  loaded.add('generate');
  return importOriginal();
});
vi.mock('../../../src/engine/platform/sample/shared-world.js', async (importOriginal) => {
  loaded.add('shared-world');
  return importOriginal();
});

const SMALL_WORLD = { seed: 1, channels: 40, terminated: 0 };
let dataDir: string;
let engine: Engine;

beforeEach(async () => {
  dataDir = tempDataDir();
  engine = await openEngine({ dataDir, store: parseStoreLocation(await createTestDatabase()), jobRunner: { mode: 'none' } });
  await engine.localSettings.set('world', SMALL_WORLD);
});

afterEach(async () => {
  await engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const worldTables = () => engine.db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'world%'").pluck().all();
const fleetWorld = () => engine.store.all('SELECT seed, channels, terminated, advanced_ms FROM sample_world');

it('answers folders list on Postgres without loading, reading or building the world', async () => {
  const service = new LocalService(engine, (await engine.identity.createUserWithKey('starter', [])).key);
  await service.call('folders.create', { name: 'Ideas' });
  expect((await service.call('folders.list', {})).folders.map((folder) => folder.name)).toEqual(['Ideas']);
  expect([...loaded]).toEqual([]);
  expect(worldTables()).toEqual([]);
  expect(await fleetWorld()).toEqual([]);

  const world = await engine.platform();
  expect(world.channelCount()).toBe(SMALL_WORLD.channels);
  expect([...loaded].sort()).toEqual(['generate', 'sample-world', 'shared-world']);
  expect(await fleetWorld()).toEqual([{ seed: '1', channels: 40, terminated: 0, advanced_ms: 0 }]);
});
