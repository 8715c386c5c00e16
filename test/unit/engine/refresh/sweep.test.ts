/**
 * The refresh sweep on a live data dir against a made-up site on 127.0.0.1: bounded and resumable,
 * safe with two processes, stopping (and storing nothing) when the platform cannot be reached,
 * storing nothing of a channel whose page it does not understand, and handing the channels it
 * finds terminated to the termination sink with their last figures.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/engine/clock.js';
import { Engine } from '../../../../src/engine/engine.js';
import type { LiveTerminatedRecord } from '../../../../src/engine/index/terminated/live-records.js';
import { tempDataDir } from '../../../support/engines.js';
import { siteId } from '../../../support/live-channels.js';
import { LiveSite } from '../../../support/live-site.js';
import { closedOrigin, startFixtureServer, type FixtureExchange, type FixtureServer } from '../../../support/platform-fixture-server.js';
import { caught } from '../../../support/service-errors.js';
import { startServer } from '../../../../src/server/serve.js';
import { openEngine } from '../../../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../../../src/engine/store/store-location.js';
import { createTestDatabase } from '../../../support/postgres.js';
import { watchedByUsers } from '../../../../src/engine/features/refresh/watch-list.js';

const START = Date.UTC(2026, 10, 1);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let dataDir: string | undefined;
let server: FixtureServer | undefined;
const engines: Engine[] = [];

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  await server?.close();
  server = undefined;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

function siteOf(clock: ManualClock, count: number): LiveSite {
  const site = new LiveSite(() => clock.now());
  for (let n = 0; n < count; n++) {
    site.add({
      id: siteId(`sweep${n}`),
      handle: `@sweep${n}`,
      title: `Sweep channel ${n}`,
      subscribers: 10_000 + n,
      views: 500_000 + n,
      videoCount: 50,
      joined: '2020-01-01',
      uploads: [{ id: `sweepV${String(n).padStart(4, '0')}`, title: `Upload ${n}`, views: 1000, publishedMs: START - DAY, channels: [siteId(`sweep${n}`)], language: 'en' }],
    });
  }
  return site;
}

/** A live engine on the site (or on `origin`), sharing `dataDir` when given. */
async function liveEngine(clock: ManualClock, origin: string, dir?: string, storeUrl?: string): Promise<Engine> {
  dataDir ??= dir ?? tempDataDir();
  const engine = storeUrl
    ? await openEngine({ dataDir, clock, jobRunner: { mode: 'none' }, store: parseStoreLocation(storeUrl) })
    : Engine.open({ dataDir, clock, jobRunner: { mode: 'none' } });
  engines.push(engine);
  await engine.localSettings.set('platform', 'live');
  const saved = process.env.TUBEKIT_PLATFORM_ORIGIN;
  process.env.TUBEKIT_PLATFORM_ORIGIN = origin;
  process.env.TUBEKIT_PLATFORM_RATE = '100';
  try {
    await engine.platform();
  } finally {
    if (saved === undefined) delete process.env.TUBEKIT_PLATFORM_ORIGIN;
    else process.env.TUBEKIT_PLATFORM_ORIGIN = saved;
    delete process.env.TUBEKIT_PLATFORM_RATE;
  }
  return engine;
}

/** Saves channels into a folder of the default user, reading each (as `saved add` does). */
async function save(engine: Engine, channelIds: string[]): Promise<void> {
  const user = (await engine.identity.createUserWithKey('ultimate', [])).key;
  const principal = await engine.authenticate(user);
  const folder = await engine.handle('folders.create', { name: 'Sweep' }, principal);
  await engine.handle('saved.add', { channel_ids: channelIds, folder_id: folder.folder.id }, principal);
}

const snapshots = (engine: Engine) => engine.db.prepare('SELECT COUNT(*) FROM live_snapshots').pluck().get() as number;
const browsesOf = (channelId: string) => server!.seen.filter((request) => request.key.browseId === channelId && !request.key.params).length;

describe('the refresh sweep', () => {
  it('reads at most its limit, leaves the rest due for the next sweep, and reads nothing before it is due again', async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 5);
    server = await startFixtureServer(site.exchanges());
    const engine = await liveEngine(clock, server.origin);
    await save(engine, [...site.channels.keys()]);
    clock.advance(6 * HOUR);
    const first = await engine.refresh({ limit: 2 });
    expect(first).toMatchObject({ watched: 5, due: 5, left: 3, interval: '6h' });
    expect(first.read.map((read) => read.state)).toEqual(['active', 'active']);
    const second = await engine.refresh({ limit: 2 });
    expect(second).toMatchObject({ due: 3, left: 1 });
    const third = await engine.refresh({ limit: 2 });
    expect(third).toMatchObject({ due: 1, left: 0 });
    expect(await engine.refresh()).toMatchObject({ due: 0, read: [] });
    // Each channel was read once by the save and once by the sweeps.
    for (const channelId of site.channels.keys()) expect(browsesOf(channelId)).toBe(2);
    clock.advance(6 * HOUR);
    expect((await engine.refresh()).read).toHaveLength(5);
    expect(server.unmatched).toEqual([]);
  });

  it("watches the saved channels and the alerts of a fleet's store (PostgreSQL), not the data dir's file", async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 3);
    server = await startFixtureServer(site.exchanges());
    const engine = await liveEngine(clock, server.origin, undefined, await createTestDatabase());
    await save(engine, [...site.channels.keys()].slice(0, 2));
    clock.advance(6 * HOUR);
    expect(await engine.refresh()).toMatchObject({ watched: 2, due: 2 });
    // The data dir's own tables hold none of them: the sweep read the shared store.
    expect(engine.db.prepare('SELECT COUNT(*) FROM saved_channels').pluck().get()).toBe(0);
    // Alerts too: the sweep's watch list takes the enabled alerts from the store.
    const user = await engine.authenticate((await engine.identity.createUserWithKey('ultimate', [])).key);
    await engine.handle('alerts.create', { name: 'Big', alert_type: 'new_channel', content_type: 'longform', filters: { min_subs: 10_002 } }, user);
    expect((await watchedByUsers(engine.store)).alerts).toEqual([{ content_type: 'longform', filters: JSON.stringify({ min_subs: 10_002 }) }]);
    expect(engine.db.prepare('SELECT COUNT(*) FROM alerts').pluck().get()).toBe(0);
  });

  it('shares the due channels between two processes sweeping at once: each is read once', async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 6);
    server = await startFixtureServer(site.exchanges());
    const one = await liveEngine(clock, server.origin);
    const two = await liveEngine(clock, server.origin, dataDir);
    await save(one, [...site.channels.keys()]);
    clock.advance(6 * HOUR);
    const [a, b] = await Promise.all([one.refresh(), two.refresh()]);
    expect(a.read.length + b.read.length).toBe(6);
    expect(new Set([...a.read, ...b.read].map((read) => read.channel_id)).size).toBe(6);
    for (const channelId of site.channels.keys()) expect(browsesOf(channelId)).toBe(2);
  });

  it('stops when the platform cannot be reached: exit 9 material, nothing stored, the channels still due', async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 2);
    server = await startFixtureServer(site.exchanges());
    const reachable = await liveEngine(clock, server.origin);
    await save(reachable, [...site.channels.keys()]);
    const stored = snapshots(reachable);
    const offline = await liveEngine(clock, await closedOrigin(), dataDir);
    clock.advance(6 * HOUR);
    const error = await caught(offline.refresh());
    expect(error).toMatchObject({ status: 503, code: 'platform_unreachable' });
    expect(error.message).toMatch(/^the video platform could not be reached \(www\.youtube\.com: connection refused\)/);
    expect(error.hint).toMatch(/--proxy/);
    expect(snapshots(offline)).toBe(stored);
    // Given back untouched: the reachable process reads them all now.
    expect((await reachable.refresh()).read).toHaveLength(2);
  });

  it("stores nothing of a channel whose page it does not understand, saves the raw answer, and reads the others", async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 2);
    const [good, broken] = [...site.channels.keys()];
    let brokenAbout = false;
    const exchanges: FixtureExchange[] = site.exchanges().map((exchange) =>
      exchange.key.continuation === `about-${broken}` ? { ...exchange, render: () => (brokenAbout ? '{"responseContext":{},"onResponseReceivedEndpoints":[]}' : exchange.render!()) } : exchange,
    );
    server = await startFixtureServer(exchanges);
    const engine = await liveEngine(clock, server.origin);
    await save(engine, [good!, broken!]);
    const brokenSnapshots = () => engine.db.prepare('SELECT COUNT(*) FROM live_snapshots s JOIN live_channels c ON c.idx = s.channel_idx WHERE c.channel_id = ?').pluck().get(broken) as number;
    brokenAbout = true;
    clock.advance(6 * HOUR);
    site.channels.get(broken!)!.views += 1000;
    const report = await engine.refresh();
    const failed = report.read.find((read) => read.channel_id === broken)!;
    expect(failed).toMatchObject({ state: 'failed', error: expect.stringMatching(/does not understand: aboutChannelViewModel\. The raw response is saved at (\S+platform-raw\S+\.json)/) });
    const saved = /saved at (\S+\.json)/.exec((failed as { error: string }).error)![1]!;
    expect(fs.existsSync(saved)).toBe(true);
    expect(brokenSnapshots()).toBe(1);
    expect(report.read.find((read) => read.channel_id === good)).toMatchObject({ state: 'active' });
    // Tried again at the next interval, not before.
    expect((await engine.refresh()).due).toBe(0);
  });

  it('stops at a refusal that outlasts the retries (exit 8 material)', async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 1);
    const [only] = [...site.channels.keys()];
    server = await startFixtureServer(site.exchanges());
    const engine = await liveEngine(clock, server.origin);
    await save(engine, [only!]);
    await server.close();
    // A wait longer than the longest back-off is not waited out: the refusal is reported at once.
    server = await startFixtureServer([{ method: 'POST', path: '/youtubei/v1/browse', key: { browseId: only! }, status: 429, headers: { 'retry-after': '120' }, body: 'slow down' }]);
    const refused = await liveEngine(clock, server.origin, dataDir);
    clock.advance(6 * HOUR);
    expect(await caught(refused.refresh())).toMatchObject({ status: 429, code: 'platform_refused' });
  });

  it('hands the channels it finds terminated or deleted to the termination sink, with their last figures', async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 3);
    const [stays, terminated, deleted] = [...site.channels.keys()];
    server = await startFixtureServer(site.exchanges());
    const engine = await liveEngine(clock, server.origin);
    await save(engine, [stays!, terminated!, deleted!]);
    for (let step = 1; step <= 4; step++) {
      clock.advance(6 * HOUR);
      site.channels.get(terminated!)!.views += 600;
      await engine.refresh();
    }
    site.channels.get(terminated!)!.state = 'terminated';
    site.channels.get(deleted!)!.state = 'missing';
    clock.advance(6 * HOUR);
    const records: LiveTerminatedRecord[] = [];
    const report = await engine.refresh({ terminations: (batch) => (records.push(...batch), { recorded: batch.length }) });
    expect(report.terminations.recorded).toBe(2);
    expect(report.terminations.channel_ids.sort()).toEqual([terminated, deleted].sort());
    expect(report.read.map((read) => [read.channel_id, read.state]).sort()).toEqual([[stays, 'active'], [terminated, 'terminated'], [deleted, 'missing']].sort());
    expect(records.find((record) => record.channel_id === terminated)).toEqual({
      channel_id: terminated,
      channel_title: 'Sweep channel 1',
      terminated_at: new Date(START + 30 * HOUR).toISOString(),
      subscribers: 10_001,
      total_views: 500_001 + 2400,
      video_count: 50,
      // The 24 hours before its last read (four reads of +600); 48 hours are not covered.
      views_24h: 2400,
      views_48h: null,
      subs_24h: 0,
      subs_48h: null,
      language_code: 'en',
      content_type: 'longform',
      top_videos: [{ video_id: 'sweepV0001', title: 'Upload 1', views: 1000, kind: 'long' }],
    });
    // Gone channels are not read again, nor reported again.
    clock.advance(6 * HOUR);
    const later = await engine.refresh({ terminations: () => ({ recorded: 0 }) });
    expect(later.read.map((read) => read.channel_id)).toEqual([stays]);
    expect(later.terminations.channel_ids).toEqual([]);
  });

  it('records what it found terminated in the data dir\'s terminated store, where the search and `terminated show` find it', async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 2);
    const [stays, terminated] = [...site.channels.keys()];
    server = await startFixtureServer(site.exchanges());
    const engine = await liveEngine(clock, server.origin);
    await save(engine, [stays!, terminated!]);
    const user = await engine.authenticate((await engine.identity.createUserWithKey('ultimate', [])).key);
    await expect(engine.handle('terminated.show', { channel_id: terminated! }, user)).rejects.toMatchObject({ status: 404 });
    site.channels.get(terminated!)!.state = 'terminated';
    clock.advance(6 * HOUR);
    const report = await engine.refresh();
    expect(report.terminations).toEqual({ channel_ids: [terminated], recorded: 1 });
    const shown = await engine.handle('terminated.show', { channel_id: terminated! }, user);
    expect(shown).toMatchObject({ channel: { channel_id: terminated, channel_title: 'Sweep channel 1', subscriber_count: 10_001 } });
    const found = await engine.handle('terminated.search', { q: 'sweep' }, user);
    expect(found.channels.map((channel: { channel_id: string }) => channel.channel_id)).toEqual([terminated]);
  });

  it('records a termination it found even when it stops at a refusal right after', async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 2);
    const [gone, refusing] = [...site.channels.keys()];
    server = await startFixtureServer(site.exchanges());
    const engine = await liveEngine(clock, server.origin);
    // Saved one after the other: the gone one is known first, so the sweep reads it first.
    await save(engine, [gone!]);
    await save(engine, [refusing!]);
    await server.close();
    site.channels.get(gone!)!.state = 'terminated';
    const refusingPage = (exchange: FixtureExchange) => exchange.key.browseId === refusing && !exchange.key.params;
    server = await startFixtureServer([
      ...site.exchanges().filter((exchange) => !refusingPage(exchange)),
      { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: refusing! }, status: 429, headers: { 'retry-after': '120' }, body: 'slow down' },
    ]);
    const later = await liveEngine(clock, server.origin, dataDir);
    clock.advance(6 * HOUR);
    const records: LiveTerminatedRecord[] = [];
    const error = await caught(later.refresh({ concurrency: 1, terminations: (batch) => (records.push(...batch), { recorded: batch.length }) }));
    expect(error.code).toBe('platform_refused');
    expect(records.map((record) => record.channel_id)).toEqual([gone]);
  });

  it('runs from serve on its alert schedule: on a live data dir each alert cycle is a sweep', async () => {
    const clock = new ManualClock(START);
    const site = siteOf(clock, 1);
    const [only] = [...site.channels.keys()];
    server = await startFixtureServer(site.exchanges());
    const engine = await liveEngine(clock, server.origin);
    await save(engine, [only!]);
    const user = await engine.authenticate((await engine.identity.createUserWithKey('ultimate', [])).key);
    await engine.handle('alerts.create', { name: 'Any', alert_type: 'outlier', content_type: 'longform', filters: {} }, user);
    const running = await startServer({ engine, port: 0, alertsEveryMinutes: 60 });
    try {
      const tabReads = () => server!.seen.filter((request) => request.key.browseId === only && request.key.params !== undefined).length;
      await expect.poll(tabReads, { timeout: 20_000, interval: 100 }).toBe(1);
      await expect.poll(() => engine.db.prepare('SELECT reason FROM alert_cycles').pluck().all(), { timeout: 20_000, interval: 100 }).toEqual(['schedule']);
    } finally {
      await running.close();
    }
  });
});
