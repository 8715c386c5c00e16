/**
 * A data dir never mixes the sample world and the live site — and on a fleet neither does the
 * shared store it works on: a data dir switching platforms is refused when the fleet's database
 * holds the other platform's data, even if the data dir's own file holds none.
 */
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import type { Engine } from '../../src/engine/engine.js';
import { recordTerminatedChannelsIn } from '../../src/engine/index/terminated/live-records.js';
import { openEngine } from '../../src/engine/open-engine.js';
import { switchPlatform } from '../../src/engine/platform/factory/open-platform.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import { failure, tempDataDir } from '../support/engines.js';
import { createTestDatabase } from '../support/postgres.js';
import { terminatedRecords } from '../support/terminated-records.js';

const NOW = Date.UTC(2026, 10, 21, 12);
const engines: Engine[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A machine of the fleet: a data dir of its own on the shared database. */
async function machine(storeUrl: string): Promise<Engine> {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const engine = await openEngine({ dataDir, clock: new ManualClock(NOW), jobRunner: { mode: 'none' }, store: parseStoreLocation(storeUrl) });
  engines.push(engine);
  return engine;
}

it('refuses to switch a data dir to sample when the fleet store holds live data it did not make itself', async () => {
  const storeUrl = await createTestDatabase();
  const first = await machine(storeUrl);
  expect(await switchPlatform(first, 'live')).toEqual({ from: 'sample', to: 'live', changed: true });
  await recordTerminatedChannelsIn(await first.liveTerminatedStore(), terminatedRecords(3, NOW));

  const second = await machine(storeUrl);
  await second.localSettings.set('platform', 'live');
  const refused = await failure(switchPlatform(second, 'sample'));
  expect(refused).toMatchObject({ status: 409, code: 'conflict', message: expect.stringMatching(/holds data of the live platform/) });
  expect(second.localSettings.get('platform')).toBe('live');
});

it('refuses to switch a data dir to live once the fleet has a sample world, and allows it on a fleet that has none', async () => {
  const storeUrl = await createTestDatabase();
  const sampleServer = await machine(storeUrl);
  await sampleServer.platform(); // the first read of the world makes the fleet's world row

  const newcomer = await machine(storeUrl);
  const refused = await failure(switchPlatform(newcomer, 'live'));
  expect(refused).toMatchObject({ status: 409, message: expect.stringMatching(/holds data of the sample platform/) });
  expect(newcomer.localSettings.get('platform')).toBeUndefined();

  const elsewhere = await machine(await createTestDatabase());
  expect(await switchPlatform(elsewhere, 'live')).toMatchObject({ to: 'live', changed: true });
});
