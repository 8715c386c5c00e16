/**
 * The live index in a fleet: two engines, each with a data dir of its own (two machines), on one
 * PostgreSQL database, reading one made-up site on 127.0.0.1. A channel read through one is known
 * through the other with its snapshots (and the other's caches hear of the write), and two refresh
 * sweeps at once share the due channels through their leases: each is read once, by one of them.
 */
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import type { Engine } from '../../src/engine/engine.js';
import { openEngine } from '../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import { tempDataDir } from '../support/engines.js';
import { siteId } from '../support/live-channels.js';
import { LiveSite } from '../support/live-site.js';
import { startFixtureServer, type FixtureServer } from '../support/platform-fixture-server.js';
import { createTestDatabase } from '../support/postgres.js';

const START = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: FixtureServer | undefined;
const engines: Engine[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function siteOf(clock: ManualClock, count: number): LiveSite {
  const site = new LiveSite(() => clock.now());
  for (let n = 0; n < count; n++) {
    // Numbered to the same width: the ids are padded, so fleet1 and fleet10 would be one.
    const name = `fleet${String(n).padStart(2, '0')}`;
    site.add({
      id: siteId(name),
      handle: `@fleet${n}`,
      title: `Fleet channel ${n}`,
      subscribers: 10_000 + n,
      views: 500_000 + n,
      videoCount: 50,
      joined: '2020-01-01',
      uploads: [{ id: `fleetV${String(n).padStart(5, '0')}`, title: `Upload ${n}`, views: 1000, publishedMs: START - DAY, channels: [siteId(name)], language: 'en' }],
    });
  }
  return site;
}

/** An engine of the fleet: a data dir of its own, the live platform on the site, the shared database. */
async function fleetEngine(clock: ManualClock, storeUrl: string): Promise<Engine> {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const engine = await openEngine({ dataDir, clock, jobRunner: { mode: 'none' }, store: parseStoreLocation(storeUrl) });
  engines.push(engine);
  await engine.localSettings.set('platform', 'live');
  process.env.TUBEKIT_PLATFORM_ORIGIN = server!.origin;
  process.env.TUBEKIT_PLATFORM_RATE = '100';
  try {
    await engine.platform();
  } finally {
    delete process.env.TUBEKIT_PLATFORM_ORIGIN;
    delete process.env.TUBEKIT_PLATFORM_RATE;
  }
  return engine;
}

async function userOf(engine: Engine) {
  const { key } = await engine.identity.createUserWithKey('ultimate', []);
  return { key, user: await engine.authenticate(key) };
}

const browsesOf = (channelId: string) => server!.seen.filter((request) => request.key.browseId === channelId && !request.key.params).length;

it('knows on one server a channel read through another, with its snapshots, and the other hears of each read', async () => {
  const clock = new ManualClock(START);
  const site = siteOf(clock, 2);
  server = await startFixtureServer(site.exchanges());
  const storeUrl = await createTestDatabase();
  const [a, b] = [await fleetEngine(clock, storeUrl), await fleetEngine(clock, storeUrl)];
  const [first, second] = [...site.channels.keys()];
  const indexOnB = await b.index();
  const revisionBefore = indexOnB.revision!();

  // Saved through A: A reads the channel (one snapshot).
  const { key, user } = await userOf(a);
  const folder = (await a.handle('folders.create', { name: 'Fleet' }, user)).folder;
  await a.handle('saved.add', { channel_ids: [first!], folder_id: folder.id }, user);
  expect(await indexOnB.channels.byId(first!)).toMatchObject({ channel_id: first, title: 'Fleet channel 0', subscribers: 10_000 });
  expect(await indexOnB.statistics.coverage!(first!)).toEqual({ watched_since_ms: START, latest_ms: START });
  // B's caches over the index learn of A's write from the database's notification.
  await expect.poll(() => indexOnB.revision!(), { timeout: 5_000 }).not.toBe(revisionBefore);

  // A day of sweeps through A (the site's figures growing): B answers the deltas from those snapshots.
  for (let hour = 6; hour <= 24; hour += 6) {
    clock.advance(6 * HOUR);
    site.channels.get(first!)!.views += 600;
    expect((await a.refresh()).read.map((read) => read.channel_id)).toEqual([first]);
  }
  // The same user (the key is the fleet's), through B.
  const ownerOnB = await b.authenticate(key);
  const channels = (await b.handle('folders.channels', { id: folder.id }, ownerOnB)).channels;
  expect(channels).toEqual([expect.objectContaining({ channel_id: first, views_24h: 2_400, watched_since: new Date(START).toISOString(), figures_as_of: new Date(START + DAY).toISOString() })]);
  // Held by the database, not by either data dir's file.
  const [snapshots] = await b.store.all<{ n: number }>('SELECT COUNT(*) AS n FROM live_snapshots s JOIN live_channels c ON c.idx = s.channel_idx WHERE c.channel_id = ?', [first!]);
  expect(snapshots!.n).toBe(5);
  for (const engine of [a, b]) expect(engine.db.prepare('SELECT COUNT(*) FROM live_channels').pluck().get()).toBe(0);

  // A channel read through B is known through A just the same.
  await (await b.platform()).channelById(second!);
  expect(await (await a.index()).channels.byId(second!)).toMatchObject({ channel_id: second });
  expect(server.unmatched).toEqual([]);
}, 60_000);

it("shares the due channels between two servers' sweeps at once through their leases: each is read once", async () => {
  const clock = new ManualClock(START);
  const site = siteOf(clock, 12);
  server = await startFixtureServer(site.exchanges());
  const storeUrl = await createTestDatabase();
  const [a, b] = [await fleetEngine(clock, storeUrl), await fleetEngine(clock, storeUrl)];
  const { user } = await userOf(a);
  const folder = (await a.handle('folders.create', { name: 'Sweep' }, user)).folder;
  await a.handle('saved.add', { channel_ids: [...site.channels.keys()], folder_id: folder.id }, user);
  clock.advance(6 * HOUR);

  const [one, two] = await Promise.all([a.refresh({ concurrency: 2 }), b.refresh({ concurrency: 2 })]);
  // Both saw all 12 due; each channel was read by exactly one of them.
  expect([one.due, two.due]).toEqual([12, 12]);
  const read = [...one.read, ...two.read].map((entry) => entry.channel_id);
  expect(read).toHaveLength(12);
  expect(new Set(read).size).toBe(12);
  expect(one.read.length).toBeGreaterThan(0);
  expect(two.read.length).toBeGreaterThan(0);
  // Once by the save, once by one of the sweeps.
  for (const channelId of site.channels.keys()) expect(browsesOf(channelId)).toBe(2);
  // The sweep's progress is in the database: neither server finds anything due now.
  const progress = await a.store.all<{ last_attempt_ms: number; lease_owner: string | null }>('SELECT last_attempt_ms, lease_owner FROM live_refresh');
  expect(progress).toHaveLength(12);
  expect(progress.every((row) => row.last_attempt_ms === START + 6 * HOUR && row.lease_owner === null)).toBe(true);
  expect(await b.refresh()).toMatchObject({ due: 0, read: [] });
  expect(await a.refresh()).toMatchObject({ due: 0, read: [] });
  expect(server.unmatched).toEqual([]);
}, 60_000);
