/**
 * The channels processing jobs index, on a fleet: two engines with data dirs of their own (two
 * machines) on one PostgreSQL database, sharing one sample world. A channel a job processed on one
 * engine's worker is in the longform index of the other, so the other's ad check reads its pages
 * instead of answering "not yet in the longform index"; the rows are the database's, in neither
 * data dir's file.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import type { Engine } from '../../src/engine/engine.js';
import { indexedChannel } from '../../src/engine/features/channels/channel-index.js';
import { judgeAdPages } from '../../src/engine/features/checks/ad-check.js';
import { processedAsLongform } from '../../src/engine/features/checks/check-store.js';
import { LocalService } from '../../src/engine/local-service.js';
import { openEngine } from '../../src/engine/open-engine.js';
import type { SampleWorld } from '../../src/engine/platform/sample/index.js';
import type { WorldChannel } from '../../src/engine/platform/sample/types.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import { setCheckWork } from '../support/check-fixtures.js';
import { tempDataDir } from '../support/engines.js';
import { createTestDatabase } from '../support/postgres.js';

const clock = new ManualClock(Date.now());
const engines: Engine[] = [];
const dataDirs: string[] = [];

/** A machine of the fleet: its own data dir, the shared database; workers only where asked. */
async function server(url: string, workers: boolean): Promise<Engine> {
  const dataDir = tempDataDir('tubekit-fleet-indexed-');
  dataDirs.push(dataDir);
  const engine = await openEngine({ dataDir, clock, store: parseStoreLocation(url), ...(workers ? {} : { jobRunner: { mode: 'none' } }) });
  engines.push(engine);
  return engine;
}

let a: Engine;
let b: Engine;

beforeAll(async () => {
  const url = await createTestDatabase();
  // A runs the jobs; B runs none, so whatever B knows of a processed channel it has from the database.
  a = await server(url, true);
  b = await server(url, false);
  await a.reseedWorld({ seed: 5, channels: 500 });
  // Jobs and checks without simulated work (a setting the fleet shares).
  await setCheckWork(a, 0);
}, 120_000);

afterAll(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it("counts on one server a channel a processing job indexed on another's worker as in the longform index", async () => {
  const key = (await a.identity.createUserWithKey('starter', [])).key;
  const [onA, onB] = [new LocalService(a, key), new LocalService(b, key)];
  // The index's managed-network verdicts are loaded by the first check; the channel must have none.
  await onB.call('cms.networks', {});
  const withVerdict = new Set((await b.store.all<{ channel_id: string }>('SELECT channel_id FROM cms_verdicts')).map((row) => row.channel_id));
  const world = (await b.platform()) as SampleWorld;
  const readable = (channel: WorldChannel) => judgeAdPages(channel, true, world.readAdPages(channel.channel_id, clock.now())).monetized !== null;
  const channel = Array.from({ length: world.channelCount() }, (_, index) => world.channelByIndex(index)!).find(
    (c) => c.content_type !== 'shorts' && c.subscribers > 5_000 && !withVerdict.has(c.channel_id) && readable(c),
  )!;
  expect(channel, 'a longform or mixed channel with no verdict whose pages read').toBeDefined();

  const before = await onB.call('monetization.ads', { channel_id: channel.channel_id });
  expect(before).toMatchObject({ monetized: null });
  expect(before.reason).toMatch(/not yet in the longform index/);
  expect(await processedAsLongform(b.store, channel.channel_id)).toBe(false);

  // Processed through A, by A's worker.
  const { job_id } = await onA.call('channels.process', { channel: channel.channel_id, type: 'longform' });
  expect((await onA.call('channels.processStatus', { job_id, wait_seconds: 20 })).status).toBe('completed');

  expect(await indexedChannel(b, channel.channel_id)).toMatchObject({ channel_id: channel.channel_id, last_job_id: job_id });
  expect(await processedAsLongform(b.store, channel.channel_id)).toBe(true);
  const after = await onB.call('monetization.ads', { channel_id: channel.channel_id });
  expect(after.reason).not.toMatch(/not yet in the longform index/);
  expect(after.monetized).toBe(judgeAdPages(channel, true, world.readAdPages(channel.channel_id, clock.now())).monetized);
  // The database's rows, in neither machine's data dir.
  for (const engine of [a, b]) {
    for (const table of ['indexed_channels', 'indexed_videos']) expect(engine.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get(), table).toBe(0);
  }
}, 60_000);
