/**
 * The sample world on a fleet: engines with data dirs of their own (other machines) on one
 * PostgreSQL database share the world's definition and clock (the `sample_world` row), each
 * keeping its own copy of the world's tables. A world seeded through one is answered identically by
 * the others, advancing through one moves the others, two advances at once add up, a server started
 * later catches up on open, and one that never hears the notifications still answers from the
 * current world (it reads the row before reading the world).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { LocalService } from '../../src/engine/local-service.js';
import { openEngine } from '../../src/engine/open-engine.js';
import type { SampleWorld } from '../../src/engine/platform/sample/sample-world.js';
import { openFleetStore } from '../../src/engine/store/open-store.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import type { Store } from '../../src/engine/store/store.js';
import { tempDataDir } from '../support/engines.js';
import { createTestDatabase } from '../support/postgres.js';

const WORLD = { seed: 21, channels: 500, terminated: 0 };
const DAY_MS = 86_400_000;

let url: string;
const engines: Engine[] = [];
const dataDirs: string[] = [];

async function server(): Promise<Engine> {
  const dataDir = tempDataDir('tubekit-fleet-world-');
  dataDirs.push(dataDir);
  const engine = await openEngine({ dataDir, store: parseStoreLocation(url), jobRunner: { mode: 'none' } });
  engines.push(engine);
  return engine;
}

/** A server whose notifications of the world's changes are lost: it can only learn of them by reading the row. */
async function deafServer(): Promise<Engine> {
  const location = parseStoreLocation(url);
  if (location.kind !== 'postgres') throw new Error('not postgres');
  const fleet = await openFleetStore(location, { migrations: 'require' });
  const store: Store = Object.create(fleet.store, {
    listen: {
      value: (channel: string, handler: (payload: string) => void) =>
        channel === 'tubekit_sample_world' ? Promise.resolve(() => undefined) : fleet.store.listen(channel, handler),
    },
  });
  const dataDir = tempDataDir('tubekit-fleet-world-');
  dataDirs.push(dataDir);
  const engine = Engine.open({ dataDir, fleet: { store, settings: fleet.settings }, jobRunner: { mode: 'none' } });
  engines.push(engine);
  return engine;
}

const world = async (engine: Engine) => (await engine.platform()) as SampleWorld;

/** What a server answers of the world: its clock, and the figures and identity of a few channels by handle. */
async function answers(engine: Engine, handles: string[]) {
  const w = await world(engine);
  const info = w.info();
  return {
    world: { seed: info.seed, channels: info.channel_count, reference_date: info.reference_date, advanced_ms: info.advanced_ms, now: w.nowMs(), count: w.channelCount() },
    edition: (await engine.index()).edition,
    channels: handles.map((handle) => {
      const channel = w.channelByHandle(handle)!;
      return { id: channel.channel_id, subscribers: channel.subscribers, views: channel.total_views, videos: channel.video_count, growth: w.growth(channel, 7), latest: w.channelVideos(channel, { limit: 3 }).map((video) => [video.video_id, video.views]) };
    }),
  };
}

/** Every row of the world's moving tables in a server's data dir. */
function tables(engine: Engine) {
  return {
    channels: engine.db.prepare('SELECT * FROM world_channels ORDER BY idx').all(),
    collabs: engine.db.prepare('SELECT * FROM world_collabs ORDER BY video_id').all(),
    members: engine.db.prepare('SELECT * FROM world_collab_members ORDER BY channel_idx, video_id').all(),
  };
}

afterAll(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the sample world on a fleet', () => {
  let a: Engine;
  let b: Engine;
  let handles: string[];

  beforeAll(async () => {
    url = await createTestDatabase();
    a = await server();
    b = await server();
    // B has read its own default world before anyone seeds the fleet's.
    expect((await world(b)).channelCount()).toBe(3000);
    await a.reseedWorld(WORLD);
    handles = (await world(a)).sampleChannels(6).map((channel) => channel.handle!);
  }, 120_000);

  it('answers a world seeded through one server identically on another', async () => {
    const onB = await answers(b, handles);
    expect(onB).toEqual(await answers(a, handles));
    expect(onB.world).toMatchObject({ seed: '21', channels: 500, advanced_ms: 0, count: 500 });
    // Through the API too: the same handle is the same channel.
    const key = (await b.identity.createUserWithKey('ultimate', [])).key;
    const resolved = await new LocalService(b, key).call('channels.resolve', { input: handles[0]! });
    expect(resolved.channel_id).toBe(onB.channels[0]!.id);
  });

  it('moves every server when one advances: figures and arrivals equal', async () => {
    const before = await answers(b, handles);
    // A 500-channel world gains a channel every day or so, not every three: move until one arrives.
    let advanced = 0;
    let arrived = 0;
    for (let step = 1; arrived === 0; step++) {
      expect(step, 'a channel arrives within 60 days of world time').toBeLessThanOrEqual(20);
      const { world: report } = await a.advanceWorld('3d');
      expect(report.advanced_ms).toBe(3 * DAY_MS);
      advanced += report.advanced_ms;
      arrived += report.new_channels;
    }
    const onB = await answers(b, handles);
    expect(onB).toEqual(await answers(a, handles));
    expect(onB.world.now).toBe(before.world.now + advanced);
    expect(onB.channels).not.toEqual(before.channels);
    // The channels that appeared are the same channels on both.
    expect(onB.world.count).toBe(500 + arrived);
    const newcomer = (w: SampleWorld) => w.channelByIndex(500);
    expect(newcomer(await world(b))).toEqual(newcomer(await world(a)));
    expect(tables(b)).toEqual(tables(a));
  });

  it('ranks and lists collabs the same on every server: each derives its growth snapshot from the same world and edition', async () => {
    const key = (await a.identity.createUserWithKey('ultimate', [])).key;
    const [onA, onB] = [new LocalService(a, key), new LocalService(b, key)];
    const top = await onA.call('collabs.top', {});
    expect(top.channels.length).toBeGreaterThan(0);
    expect(await onB.call('collabs.top', {})).toEqual(top);
    const feed = await onB.call('collabs.feed', {});
    expect(await onA.call('collabs.feed', {})).toEqual(feed);
  });

  it('adds up two advances made at once on two servers: both end 2 days on', async () => {
    const start = (await world(a)).nowMs();
    const [onA, onB] = await Promise.all([a.advanceWorld('1d'), b.advanceWorld('1d')]);
    // Each report covers its own day: one after the other.
    const spans = [onA.world, onB.world].map((report) => [Date.parse(report.from), Date.parse(report.to)]).sort((x, y) => x[0]! - y[0]!);
    expect(spans).toEqual([
      [start, start + DAY_MS],
      [start + DAY_MS, start + 2 * DAY_MS],
    ]);
    for (const engine of [a, b]) expect((await world(engine)).nowMs()).toBe(start + 2 * DAY_MS);
    expect(await answers(b, handles)).toEqual(await answers(a, handles));
  });

  it('catches up a server started later on open, with the same rows as the others', async () => {
    const late = await server();
    expect(await answers(late, handles)).toEqual(await answers(a, handles));
    expect(tables(late)).toEqual(tables(a));
  });

  it('answers from the current world on a server that missed the notifications', async () => {
    const deaf = await deafServer();
    expect(await answers(deaf, handles)).toEqual(await answers(a, handles));
    await a.advanceWorld('12h');
    expect(await answers(deaf, handles)).toEqual(await answers(a, handles));
    await a.reseedWorld({ ...WORLD, seed: 22 });
    const newHandles = (await world(a)).sampleChannels(3).map((channel) => channel.handle!);
    const onDeaf = await answers(deaf, newHandles);
    expect(onDeaf).toEqual(await answers(a, newHandles));
    expect(onDeaf.world).toMatchObject({ seed: '22', advanced_ms: 0 });
  });

  it('starts a fresh index on every server when the world is reseeded: one edition across the fleet', async () => {
    const before = (await a.index()).edition;
    await b.reseedWorld({ ...WORLD, seed: 23 });
    const editions = await Promise.all([a, b].map(async (engine) => (await engine.index()).edition));
    expect(editions[0]).toBe(editions[1]);
    expect(editions[0]).not.toBe(before);
    // Reseeded with the same parameters again: the same world, but the index starts afresh.
    await a.reseedWorld({ ...WORLD, seed: 23 });
    const again = await Promise.all([a, b].map(async (engine) => (await engine.index()).edition));
    expect(again[0]).toBe(again[1]);
    expect(again[0]).not.toBe(editions[0]);
  });
});

describe('the fleet\'s world and the world generator\'s version', () => {
  it('moves a row of an older generator to this one (a new edition), and refuses one of a newer generator, saying why', async () => {
    const { WORLD_GENERATOR_VERSION } = await import('../../src/engine/platform/sample/generate.js');
    url = await createTestDatabase();
    const first = await server();
    await first.reseedWorld({ seed: 31, channels: 100, terminated: 0 });
    const edition = (await first.index()).edition;
    await first.store.run('UPDATE sample_world SET generator_version = ?', [WORLD_GENERATOR_VERSION - 1]);
    const upgraded = await server();
    expect((await world(upgraded)).channelCount()).toBe(100);
    expect(await upgraded.store.all('SELECT generator_version FROM sample_world')).toEqual([{ generator_version: WORLD_GENERATOR_VERSION }]);
    expect((await upgraded.index()).edition).not.toBe(edition);
    expect((await first.index()).edition).toBe((await upgraded.index()).edition);

    await first.store.run('UPDATE sample_world SET generator_version = ?', [WORLD_GENERATOR_VERSION + 1]);
    const refused = await first.platform().then(() => undefined, (error: unknown) => error);
    expect(refused).toMatchObject({ status: 409, message: expect.stringContaining(`world generator version ${WORLD_GENERATOR_VERSION + 1}`), hint: expect.stringMatching(/same tubekit version/) });
  });
});
