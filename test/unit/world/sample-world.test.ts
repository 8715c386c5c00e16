import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_WORLD_CHANNELS,
  SampleWorld,
  WORLD_GENERATOR_VERSION,
  normalizeHandle,
  type PlatformProvider,
  type WorldChannel,
} from '../../../src/engine/platform/sample/index.js';
import { dayNumber, dayToIso } from '../../../src/engine/dates.js';

const REF = '2026-11-21';
const SEED = 'test-seed';

function openDb(): Database.Database {
  return new Database(':memory:');
}

function allRows(db: Database.Database): unknown[] {
  return db.prepare('SELECT * FROM world_channels ORDER BY idx').all();
}

function allChannels(world: SampleWorld): WorldChannel[] {
  const out: WorldChannel[] = [];
  for (let i = 0; i < world.channelCount(); i++) out.push(world.channelByIndex(i)!);
  return out;
}

describe('sample world: generation', () => {
  it(`generates the default world (${DEFAULT_WORLD_CHANNELS} channels)`, () => {
    const db = openDb();
    const t0 = performance.now();
    const world = SampleWorld.ensure(db, { seed: SEED, channels: DEFAULT_WORLD_CHANNELS, referenceDate: REF });
    const ms = performance.now() - t0;
    // Printed, not asserted: tests must not depend on machine speed.
    console.log(`[world] generated ${DEFAULT_WORLD_CHANNELS} channels / ${world.info().video_count} videos in ${ms.toFixed(0)} ms`);
    const info = world.info();
    expect(info).toMatchObject({
      generator_version: WORLD_GENERATOR_VERSION,
      seed: SEED,
      channel_count: DEFAULT_WORLD_CHANNELS,
      reference_date: REF,
    });
    expect(info.video_count).toBeGreaterThan(DEFAULT_WORLD_CHANNELS * 5);
    expect(Number.isNaN(Date.parse(info.generated_at))).toBe(false);
    expect(world.channelCount()).toBe(DEFAULT_WORLD_CHANNELS);
    db.close();
  });

  it('is deterministic: same seed and size give identical rows', () => {
    const a = openDb();
    const b = openDb();
    SampleWorld.ensure(a, { seed: SEED, channels: 800, referenceDate: REF });
    SampleWorld.ensure(b, { seed: SEED, channels: 800, referenceDate: REF });
    expect(allRows(a)).toEqual(allRows(b));
    const wa = new SampleWorld(a);
    const wb = new SampleWorld(b);
    for (const i of [0, 17, 799]) {
      expect(wa.channelVideos(wa.channelByIndex(i)!)).toEqual(wb.channelVideos(wb.channelByIndex(i)!));
    }
    expect(wa.info().video_count).toBe(wb.info().video_count);
  });

  it('a numeric seed and its string form are the same world', () => {
    const a = openDb();
    const b = openDb();
    SampleWorld.ensure(a, { seed: 42, channels: 50, referenceDate: REF });
    SampleWorld.ensure(b, { seed: '42', channels: 50, referenceDate: REF });
    expect(allRows(a)).toEqual(allRows(b));
  });

  it('a different seed gives a different world', () => {
    const a = openDb();
    const b = openDb();
    SampleWorld.ensure(a, { seed: SEED, channels: 200, referenceDate: REF });
    SampleWorld.ensure(b, { seed: SEED + '-other', channels: 200, referenceDate: REF });
    const ra = allRows(a) as Array<{ channel_id: string; handle: string; subscribers: number }>;
    const rb = allRows(b) as Array<{ channel_id: string; handle: string; subscribers: number }>;
    const idsA = new Set(ra.map((r) => r.channel_id));
    expect(rb.some((r) => idsA.has(r.channel_id))).toBe(false);
    expect(ra.map((r) => r.subscribers)).not.toEqual(rb.map((r) => r.subscribers));
  });

  it('a smaller world is a prefix of a bigger one with the same seed', () => {
    const small = openDb();
    const big = openDb();
    SampleWorld.ensure(small, { seed: SEED, channels: 300, referenceDate: REF });
    SampleWorld.ensure(big, { seed: SEED, channels: 900, referenceDate: REF });
    expect(allRows(small)).toEqual(allRows(big).slice(0, 300));
  });
});

describe('sample world: reads', () => {
  let db: Database.Database;
  let world: SampleWorld;
  let channels: WorldChannel[];

  beforeAll(() => {
    db = openDb();
    world = SampleWorld.ensure(db, { seed: SEED, channels: 2000, referenceDate: REF });
    channels = allChannels(world);
  });
  afterAll(() => db.close());

  it('channel ids and handles are unique and well-formed', () => {
    const ids = new Set(channels.map((c) => c.channel_id));
    const handles = new Set(channels.map((c) => c.handle.toLowerCase()));
    expect(ids.size).toBe(channels.length);
    expect(handles.size).toBe(channels.length);
    for (const c of channels) {
      expect(c.channel_id).toMatch(/^UC[A-Za-z0-9_-]{22}$/);
      expect(c.handle).toMatch(/^@[a-z0-9._-]{3,30}$/);
      expect(c.thumbnail_url).toMatch(/^https:\/\/[^/]+\/.+/);
      expect(c.created_at >= '2006-01-01' && c.created_at <= REF).toBe(true);
      expect(c.subscribers).toBeGreaterThanOrEqual(0);
      expect(c.video_count).toBeGreaterThanOrEqual(1);
      expect(['longform', 'shorts', 'mixed']).toContain(c.content_type);
      expect(c.language_code.length).toBeGreaterThanOrEqual(2);
      expect(c.country).toMatch(/^[A-Z]{2}$/);
    }
  });

  it('has a heavy-tailed size distribution and a language mix led by English', () => {
    const subs = channels.map((c) => c.subscribers).sort((a, b) => a - b);
    const median = subs[Math.floor(subs.length / 2)];
    expect(median).toBeLessThan(20_000);
    expect(subs[subs.length - 1]).toBeGreaterThan(1_000_000);
    expect(subs[subs.length - 1] / median).toBeGreaterThan(100);
    const byLang = new Map<string, number>();
    for (const c of channels) byLang.set(c.language, (byLang.get(c.language) ?? 0) + 1);
    const ranked = [...byLang].sort((a, b) => b[1] - a[1]);
    expect(ranked[0][0]).toBe('English');
    expect(byLang.size).toBeGreaterThanOrEqual(10);
    expect(ranked.slice(1, 3).map((r) => r[0])).toContain('Spanish');
  });

  it('finds channels by id and by handle, case-insensitively, with or without "@"', () => {
    const c = channels[123];
    expect(world.channelById(c.channel_id)).toEqual(c);
    const bare = c.handle.slice(1);
    for (const h of [c.handle, bare, bare.toUpperCase(), '@' + bare.toUpperCase(), `  ${c.handle} `, `https://www.youtube.com/${c.handle}/videos`]) {
      expect(world.channelByHandle(h)?.channel_id).toBe(c.channel_id);
    }
    // SQL lookups on the column are case-insensitive too.
    const row = db.prepare('SELECT channel_id FROM world_channels WHERE handle = ?').get(c.handle.toUpperCase()) as { channel_id: string };
    expect(row.channel_id).toBe(c.channel_id);
    expect(world.channelByHandle('@no-such-handle-here')).toBeNull();
    expect(world.channelByHandle('@x')).toBeNull();
    expect(world.channelByHandle('')).toBeNull();
    expect(world.channelById('UC0000000000000000000000')).toBeNull();
    expect(normalizeHandle('@Cozy.Cooking')).toBe('@cozy.cooking');
  });

  it('history: at least 60 days, consecutive, ending exactly at the current totals', () => {
    const problems: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok && problems.length < 10) problems.push(what);
    };
    for (const c of channels.slice(0, 500)) {
      const h = world.dailyStats(c);
      expect(h.length).toBeGreaterThanOrEqual(60);
      const last = h[h.length - 1];
      expect(last.date).toBe(REF);
      expect(last.subscribers).toBe(c.subscribers);
      expect(last.views).toBe(c.total_views);
      for (let i = 1; i < h.length; i++) {
        const at = `${c.channel_id} ${h[i].date}`;
        check(dayNumber(h[i].date) === dayNumber(h[i - 1].date) + 1, `${at}: not consecutive`);
        check(h[i].subscribers - h[i - 1].subscribers === h[i].subscribers_gained, `${at}: subscribers_gained`);
        check(h[i].views - h[i - 1].views === h[i].views_gained, `${at}: views_gained`);
        check(h[i].views_gained >= 0, `${at}: views decreased`);
        check(h[i].subscribers >= 0, `${at}: negative subscribers`);
        check(Number.isInteger(h[i].subscribers) && Number.isInteger(h[i].views), `${at}: non-integer totals`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('history ranges are clipped and stable across queries', () => {
    const c = channels[5];
    const full = world.dailyStats(c, dayToIso(dayNumber(REF) - 99), REF);
    expect(full.length).toBe(100);
    const part = world.dailyStats(c.channel_id, dayToIso(dayNumber(REF) - 30), dayToIso(dayNumber(REF) - 10));
    expect(part).toEqual(full.slice(69, 90));
    expect(world.dailyStats(c, '2000-01-01', '2000-02-01')).toEqual([]);
    expect(world.dailyStats(c, '1990-01-01')[0].date).toBe(c.created_at);
    expect(world.dailyStats('UCunknown')).toEqual([]);
  });

  it('growth and deltas agree with the history', () => {
    for (const c of channels.slice(0, 200)) {
      const h = world.dailyStats(c);
      const n = h.length - 1;
      for (const days of [1, 2, 7, 30]) {
        const g = world.growth(c, days)!;
        expect(g.subscribers).toBe(h[n].subscribers - h[n - days].subscribers);
        expect(g.views).toBe(h[n].views - h[n - days].views);
      }
      expect(world.deltas(c)).toEqual({
        views_24h: h[n].views_gained,
        views_48h: h[n].views_gained + h[n - 1].views_gained,
        subs_24h: h[n].subscribers_gained,
        subs_48h: h[n].subscribers_gained + h[n - 1].subscribers_gained,
      });
      expect(world.growth(c.channel_id, 0)).toEqual({ subscribers: 0, views: 0 });
    }
    expect(world.growth('UCunknown', 7)).toBeNull();
    expect(world.deltas('UCunknown')).toBeNull();
  });

  it('growth is sometimes negative', () => {
    const negative = channels.filter((c) => world.growth(c, 30)!.subscribers < 0);
    expect(negative.length).toBeGreaterThan(0);
    expect(negative.length).toBeLessThan(channels.length / 2);
  });

  it('videos: well-formed, unique, newest first, resolvable by id', () => {
    const problems: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok && problems.length < 10) problems.push(what);
    };
    const byId = new Map<string, string>(); // video id -> host channel id
    const nowMs = (dayNumber(REF) + 1) * 86_400_000;
    let upcoming = 0;
    let collabListings = 0;
    let generatedOnOrigin = 0;
    for (const c of channels) {
      const vids = world.channelVideos(c);
      check(vids.length > 0 && vids.length <= 21 + 3, `${c.channel_id}: ${vids.length} videos`);
      // Ordinals are stable numbers, not list positions: the generated videos count from the oldest.
      const ownGenerated = vids.filter((v) => v.channel_id === c.channel_id && v.kind !== 'upcoming').map((v) => v.ordinal);
      if (ownGenerated.length > 0) generatedOnOrigin += Math.max(...ownGenerated) + 1;
      for (let i = 0; i < vids.length; i++) {
        const v = vids[i];
        const at = `${c.channel_id}/${v.video_id}`;
        check(/^[A-Za-z0-9_-]{11}$/.test(v.video_id), `${at}: id format`);
        // A video appears once per list, and always with the same host wherever it is listed.
        check(vids.findIndex((other) => other.video_id === v.video_id) === i, `${at}: listed twice`);
        check((byId.get(v.video_id) ?? v.channel_id) === v.channel_id, `${at}: two hosts`);
        byId.set(v.video_id, v.channel_id);
        const own = v.channel_id === c.channel_id;
        if (!own) collabListings++;
        check(own || v.collaborators.includes(c.channel_id), `${at}: listed without being host or collaborator`);
        check(!v.collaborators.includes(v.channel_id), `${at}: host among its collaborators`);
        check(own ? (v.kind === 'upcoming' ? v.ordinal >= 64 : v.ordinal < 64) : true, `${at}: ordinal ${v.ordinal}`);
        if (i > 0 && v.kind !== 'upcoming') check(v.published_at <= vids[i - 1].published_at, `${at}: not newest first`);
        const t = Date.parse(v.published_at);
        if (v.kind === 'upcoming') {
          upcoming++;
          check(t >= nowMs, `${at}: upcoming not in the future`);
          check(v.views === 0 && v.likes === 0 && v.comments === 0, `${at}: upcoming has numbers`);
        } else {
          check(t < nowMs, `${at}: published in the future`);
          if (own) check(v.published_at.slice(0, 10) >= c.created_at, `${at}: before channel creation`);
          check(v.likes <= v.views && v.views >= 0, `${at}: likes > views`);
          if (v.kind === 'short') check(v.duration_seconds > 0 && v.duration_seconds <= 60, `${at}: short duration`);
          else check(v.duration_seconds >= 180 && v.duration_seconds <= 90 * 60, `${at}: long duration`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(generatedOnOrigin).toBe(world.info().video_count);
    expect(upcoming).toBeGreaterThan(0);
    expect(collabListings).toBeGreaterThan(0);

    // Resolve a sample by id with a fresh instance (no cache).
    const fresh = new SampleWorld(db);
    for (const c of channels.filter((_, i) => i % 97 === 0)) {
      for (const v of world.channelVideos(c)) expect(fresh.videoById(v.video_id)).toEqual(v);
    }
    expect(fresh.videoById('AAAAAAAAAAA')).toBeNull();
    expect(fresh.videoById('not-an-id')).toBeNull();
  });

  it('video mix follows content type; filters and limits work', () => {
    const count = (type: string, kind: string) =>
      channels
        .filter((c) => c.content_type === type)
        .reduce((n, c) => n + world.channelVideos(c, { kind: kind as 'long' | 'short' }).length, 0);
    expect(count('shorts', 'short')).toBeGreaterThan(count('shorts', 'long') * 3);
    expect(count('longform', 'long')).toBeGreaterThan(count('longform', 'short') * 3);
    const c = channels.find((x) => x.content_type === 'mixed' && x.video_count > 30)!;
    const shorts = world.channelVideos(c.channel_id, { kind: 'short', limit: 2 });
    expect(shorts.length).toBeLessThanOrEqual(2);
    expect(shorts.every((v) => v.kind === 'short')).toBe(true);
    expect(world.channelVideos(c, { limit: 0 })).toEqual([]);
    expect(world.channelVideos('UCunknown')).toEqual([]);
  });

  it('sampleChannels gives a varied, stable, pageable selection', () => {
    const first = world.sampleChannels(14);
    expect(first.length).toBe(14);
    expect(first.some((c) => c.subscribers >= 1_000_000)).toBe(true);
    expect(first.some((c) => c.subscribers < 1_000)).toBe(true);
    expect(new Set(first.map((c) => c.language)).size).toBeGreaterThanOrEqual(3);
    for (const c of first) {
      expect(c).toMatchObject({
        channel_id: expect.any(String),
        handle: expect.any(String),
        title: expect.any(String),
        language: expect.any(String),
        category: expect.any(String),
        subscribers: expect.any(Number),
        content_type: expect.any(String),
      });
    }
    const twenty = world.sampleChannels(20);
    expect([...world.sampleChannels(10), ...world.sampleChannels(10, 10)]).toEqual(twenty);
    const everything = world.sampleChannels(10_000);
    expect(everything.length).toBe(channels.length);
    expect(new Set(everything.map((c) => c.idx)).size).toBe(channels.length);
    expect(world.sampleChannels(10, channels.length)).toEqual([]);
  });

  it('implements PlatformProvider', async () => {
    const p: PlatformProvider = world;
    const c = channels[9];
    expect(p.source).toBe('sample');
    expect((await p.resolveHandle(c.handle.toUpperCase()))?.channel_id).toBe(c.channel_id);
    const vids = await p.channelVideos(c.channel_id, { limit: 1 });
    expect((await p.videoById(vids[0].video_id))?.channel_id).toBe(c.channel_id);
    expect(await p.deltas(c.channel_id)).toEqual(world.deltas(c));
  });
});

describe('sample world: ensure / regenerate', () => {
  const marker = (db: Database.Database) =>
    db.prepare("SELECT value FROM world_meta WHERE key = 'test_marker'").get() as { value: string } | undefined;
  const setMarker = (db: Database.Database) =>
    db.prepare("INSERT INTO world_meta (key, value) VALUES ('test_marker', 'x')").run();

  it('does not regenerate when the parameters match', () => {
    const db = openDb();
    const w1 = SampleWorld.ensure(db, { seed: SEED, channels: 100, referenceDate: REF });
    setMarker(db);
    const w2 = SampleWorld.ensure(db, { seed: SEED, channels: 100, referenceDate: REF });
    expect(w2.info().generated_at).toBe(w1.info().generated_at);
    expect(marker(db)).toBeDefined();
    // Without an explicit date, an existing world is kept whatever its date.
    const w3 = SampleWorld.ensure(db, { seed: SEED, channels: 100 });
    expect(w3.info().reference_date).toBe(REF);
    expect(marker(db)).toBeDefined();
  });

  it('regenerates when seed, size, date or generator version differ', () => {
    const db = openDb();
    SampleWorld.ensure(db, { seed: SEED, channels: 100, referenceDate: REF });

    setMarker(db);
    let w = SampleWorld.ensure(db, { seed: 'another', channels: 100, referenceDate: REF });
    expect(marker(db)).toBeUndefined();
    expect(w.info().seed).toBe('another');

    setMarker(db);
    w = SampleWorld.ensure(db, { seed: 'another', channels: 150, referenceDate: REF });
    expect(marker(db)).toBeUndefined();
    expect(w.channelCount()).toBe(150);
    expect((db.prepare('SELECT COUNT(*) AS n FROM world_channels').get() as { n: number }).n).toBe(150);

    setMarker(db);
    w = SampleWorld.ensure(db, { seed: 'another', channels: 150, referenceDate: '2026-06-01' });
    expect(marker(db)).toBeUndefined();
    expect(w.info().reference_date).toBe('2026-06-01');
    const c = w.channelByIndex(0)!;
    expect(w.dailyStats(c).at(-1)!.date).toBe('2026-06-01');

    setMarker(db);
    db.prepare("UPDATE world_meta SET value = '0' WHERE key = 'generator_version'").run();
    w = SampleWorld.ensure(db, { seed: 'another', channels: 150, referenceDate: '2026-06-01' });
    expect(marker(db)).toBeUndefined();
    expect(w.info().generator_version).toBe(WORLD_GENERATOR_VERSION);
  });

  it('regenerate always rebuilds, dropping stale world_* tables only', () => {
    const db = openDb();
    SampleWorld.ensure(db, { seed: SEED, channels: 50, referenceDate: REF });
    db.exec('CREATE TABLE world_stale (x INTEGER); CREATE TABLE index_channels (x INTEGER)');
    setMarker(db);
    const w = SampleWorld.regenerate(db, { seed: SEED, channels: 50, referenceDate: REF });
    expect(marker(db)).toBeUndefined();
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name);
    expect(tables).not.toContain('world_stale');
    expect(tables).toContain('index_channels');
    expect(w.channelCount()).toBe(50);
  });

  it('rejects bad options and opening an empty database', () => {
    const db = openDb();
    expect(() => SampleWorld.ensure(db, { seed: SEED, channels: 0 })).toThrow();
    expect(() => SampleWorld.ensure(db, { seed: SEED, channels: 1.5 })).toThrow();
    expect(() => SampleWorld.ensure(db, { seed: '', channels: 10 })).toThrow();
    expect(() => SampleWorld.ensure(db, { seed: SEED, channels: 10, referenceDate: '21/11/2026' })).toThrow();
    expect(() => new SampleWorld(db)).toThrow();
    expect(SampleWorld.open(db)).toBeNull();
  });
});
