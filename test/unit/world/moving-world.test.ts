import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SampleWorld, type WorldVideo } from '../../../src/engine/platform/sample/index.js';
import { dayNumber, dayToIso } from '../../../src/engine/dates.js';

const REF = '2026-11-21';
const SEED = 'moving';
const DAY = 86_400_000;
const HOUR = 3_600_000;
const ORIGIN = (dayNumber(REF) + 1) * DAY;

function world(channels = 600): { db: Database.Database; world: SampleWorld } {
  const db = new Database(':memory:');
  return { db, world: SampleWorld.ensure(db, { seed: SEED, channels, terminated: 200, referenceDate: REF }) };
}

/** Every row of every world_* table, for comparing two databases. */
function snapshot(db: Database.Database): Record<string, unknown[]> {
  // Virtual tables (full-text indexes) are read through their shadow tables.
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'world_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name").all() as Array<{ name: string }>).map((row) => row.name);
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const rows = db.prepare(`SELECT * FROM "${table}" ORDER BY 1, 2`).all() as Array<Record<string, unknown>>;
    out[table] = table === 'world_meta' ? rows.filter((row) => row.key !== 'generated_at' && row.key !== 'generation_ms') : rows;
  }
  return out;
}

describe('a world that moves', () => {
  it('starts at the end of its reference date and reports its clock', () => {
    const { world: w } = world(100);
    expect(w.nowMs()).toBe(ORIGIN);
    expect(w.info()).toMatchObject({ world_time: '2026-11-22T00:00:00Z', advanced_ms: 0, arrived_channels: 0, reference_date: REF });
    const report = w.advance(DAY + 6 * HOUR);
    expect(report).toMatchObject({ from: '2026-11-22T00:00:00Z', to: '2026-11-23T06:00:00Z', advanced_ms: DAY + 6 * HOUR });
    expect(w.info()).toMatchObject({ world_time: '2026-11-23T06:00:00Z', advanced_ms: DAY + 6 * HOUR });
  });

  it('is reproducible from the seed and the total advanced: 1d twice, 2d once, and 30 hours plus 18 are the same world', () => {
    const a = world();
    const b = world();
    const c = world();
    a.world.advance(DAY);
    a.world.advance(DAY);
    b.world.advance(2 * DAY);
    c.world.advance(30 * HOUR);
    c.world.advance(18 * HOUR);
    const expected = snapshot(b.db);
    expect(snapshot(a.db)).toEqual(expected);
    expect(snapshot(c.db)).toEqual(expected);
    expect(expected.world_channels!.length).toBeGreaterThan(600);
  });

  it('catches up to a total advanced from wherever its clock is, in spans of at most 366 days, as one advance would (a fleet\'s copy)', () => {
    const once = world(200);
    const caughtUp = world(200);
    once.world.advance(300 * DAY);
    once.world.advance(100 * DAY + 90_000);
    caughtUp.world.advance(2 * DAY);
    caughtUp.world.advanceTo(400 * DAY + 90_000);
    expect(snapshot(caughtUp.db)).toEqual(snapshot(once.db));
    // There already: nothing moves. Past it: refused, and nothing changes.
    caughtUp.world.advanceTo(400 * DAY + 90_000);
    expect(caughtUp.world.info().advanced_ms).toBe(400 * DAY + 90_000);
    expect(() => caughtUp.world.advanceTo(DAY)).toThrow(/past/);
    expect(snapshot(caughtUp.db)).toEqual(snapshot(once.db));
  });

  it('moves without regenerating: other world tables and their rows stay', () => {
    const { db, world: w } = world(100);
    db.exec("CREATE TABLE world_other (x TEXT); INSERT INTO world_other VALUES ('kept')");
    const generatedAt = w.info().generated_at;
    w.advance(3 * DAY);
    expect(db.prepare('SELECT x FROM world_other').pluck().all()).toEqual(['kept']);
    expect(SampleWorld.ensure(db, { seed: SEED, channels: 100, terminated: 200 }).info()).toMatchObject({ generated_at: generatedAt, advanced_ms: 3 * DAY });
  });

  it('refuses to move by less than a minute or more than 366 days', () => {
    const { world: w } = world(50);
    for (const ms of [0, -DAY, 59_999, 367 * DAY, 1.5 * HOUR + 0.5]) expect(() => w.advance(ms)).toThrow(/1 minute to 366 days/);
    expect(w.nowMs()).toBe(ORIGIN);
  });

  it('keeps every video id and its data; views only grow; upcoming videos publish under the same id', () => {
    const { world: w } = world();
    const before = new Map<string, WorldVideo>();
    for (let idx = 0; idx < 600; idx++) for (const video of w.channelVideos(w.channelByIndex(idx)!)) before.set(video.video_id, video);
    const upcomingBefore = [...before.values()].filter((video) => video.kind === 'upcoming');
    expect(upcomingBefore.length).toBeGreaterThan(0);
    w.advance(15 * DAY);
    let published = 0;
    for (const [id, old] of before) {
      const now = w.videoById(id);
      expect(now, id).not.toBeNull();
      expect(now).toMatchObject({ video_id: id, channel_id: old.channel_id, title: old.title, published_at: old.published_at, ordinal: old.ordinal });
      expect(now!.collaborators).toEqual(old.collaborators);
      expect(now!.views).toBeGreaterThanOrEqual(old.views);
      if (old.kind === 'upcoming') {
        // Every premiere announced on the reference date is at most 14 days away.
        expect(now!.kind).toBe('long');
        expect(now!.duration_seconds).toBeGreaterThan(0);
        published++;
      } else {
        expect(now).toMatchObject({ kind: old.kind, duration_seconds: old.duration_seconds });
      }
    }
    expect(published).toBe(upcomingBefore.length);
    const transcribed = upcomingBefore.map((video) => w.transcript(video.video_id)).filter(Boolean);
    expect(transcribed.length).toBeGreaterThan(0);
  });

  it('publishes new videos, newest first, with new ids that resolve', () => {
    const { world: w } = world();
    w.advance(5 * DAY);
    let fresh = 0;
    for (let idx = 0; idx < 600; idx++) {
      const channel = w.channelByIndex(idx)!;
      const videos = w.channelVideos(channel);
      const published = videos.filter((video) => video.kind !== 'upcoming');
      for (let i = 1; i < published.length; i++) expect(published[i]!.published_at <= published[i - 1]!.published_at).toBe(true);
      for (const video of published) {
        if (Date.parse(video.published_at) < ORIGIN) continue;
        fresh++;
        expect(Date.parse(video.published_at)).toBeLessThanOrEqual(w.nowMs());
        expect(video.ordinal).toBeGreaterThanOrEqual(64);
        expect(w.videoById(video.video_id)).toEqual(video);
      }
    }
    expect(fresh).toBeGreaterThan(600);
    expect(w.info().video_count).toBeGreaterThan(0);
  });

  it('grows statistics along each model: the past stays, history reaches the new day and ends at the current totals', () => {
    const { world: w } = world();
    const sample = [3, 50, 120, 333, 599].map((idx) => w.channelByIndex(idx)!);
    const past = sample.map((channel) => w.dailyStats(channel, dayToIso(dayNumber(REF) - 40), REF));
    w.advance(10 * DAY + 6 * HOUR);
    sample.forEach((old, index) => {
      const channel = w.channelById(old.channel_id)!;
      expect(w.dailyStats(channel, dayToIso(dayNumber(REF) - 40), REF)).toEqual(past[index]);
      const history = w.dailyStats(channel);
      const last = history.at(-1)!;
      expect(last.date).toBe('2026-12-02'); // the current day, six hours in
      expect(last.subscribers).toBe(channel.subscribers);
      expect(last.views).toBe(channel.total_views);
      expect(channel.total_views).toBeGreaterThanOrEqual(old.total_views);
      for (let i = 1; i < history.length; i++) expect(history[i]!.views - history[i - 1]!.views).toBe(history[i]!.views_gained);
      const week = w.growth(channel, 7)!;
      const [then, now] = w.totalsAt(channel, [w.nowMs() - 7 * DAY, w.nowMs()])!;
      expect(week).toEqual({ subscribers: now!.subscribers - then!.subscribers, views: now!.views - then!.views });
      expect(w.deltas(channel)!.views_24h).toBe(now!.views - w.totalsAt(channel, [w.nowMs() - DAY])![0]!.views);
    });
    expect(() => w.totalsAt(sample[0]!, [w.nowMs() + 1])).toThrow(RangeError);
  });

  it('lets new channels appear, with handles, zero totals before they existed, and growth after', () => {
    const { world: w } = world();
    w.advance(20 * DAY);
    const count = w.channelCount();
    expect(count).toBeGreaterThan(600);
    expect(w.info().arrived_channels).toBe(count - 600);
    const newcomer = w.channelByIndex(600)!;
    expect(newcomer.created_at > REF).toBe(true);
    expect(w.channelByHandle(newcomer.handle)?.channel_id).toBe(newcomer.channel_id);
    expect(newcomer.collab_scanned).toBe(false);
    const history = w.dailyStats(newcomer);
    expect(history[0]).toMatchObject({ date: newcomer.created_at, subscribers: 0, views: 0 });
    expect(newcomer.total_views).toBeGreaterThan(0);
    const handles = new Set<string>();
    for (let idx = 0; idx < count; idx++) handles.add(w.channelByIndex(idx)!.handle);
    expect(handles.size).toBe(count);
    // Stable: the same newcomers whatever the steps.
    const other = world();
    for (let i = 0; i < 4; i++) other.world.advance(5 * DAY);
    expect(other.world.channelByIndex(600)).toEqual(newcomer);
  });

  it('has channels break out: a day of views many times their usual, and a viral video', () => {
    const { world: w } = world(1500);
    const report = w.advance(2 * DAY);
    expect(report.breakouts).toBeGreaterThan(2);
    let found = 0;
    for (const channel of w.eachChannel()) {
      const [weekAgo, dayAgo, now] = w.totalsAt(channel, [w.nowMs() - 29 * DAY, w.nowMs() - DAY, w.nowMs()])!;
      const usual = (dayAgo!.views - weekAgo!.views) / 28;
      if (usual > 50 && now!.views - dayAgo!.views >= 4 * usual) found++;
    }
    expect(found).toBeGreaterThan(2);
  });

  it('lists collab videos under the host and every collaborator, upcoming ones included', () => {
    const { world: w } = world();
    let checked = 0;
    let upcoming = 0;
    for (let idx = 0; idx < 600; idx++) {
      for (const listing of w.collabs.involving(idx, w.nowMs())) {
        const [host, ...collaborators] = listing.members;
        expect(host).toBe(listing.host_idx);
        expect(collaborators.length).toBeGreaterThan(0);
        const video = w.videoById(listing.video_id)!;
        expect(video.channel_id).toBe(w.channelIdOf(host!));
        expect(video.collaborators.sort()).toEqual(collaborators.map((member) => w.channelIdOf(member)).sort());
        if (video.kind === 'upcoming') upcoming++;
        for (const member of listing.members) {
          const list = w.channelVideos(w.channelByIndex(member)!).map((v) => v.video_id);
          if (list.length < 20) expect(list).toContain(listing.video_id);
        }
        checked++;
        if (checked > 200) break;
      }
    }
    expect(checked).toBeGreaterThan(50);
    // Premieres announced by the reference date include collabs: upcoming on both channels' lists.
    const upcomingCollabs = [...Array(600).keys()].flatMap((idx) => w.collabs.involving(idx, w.nowMs()).filter((listing) => listing.published_ms > w.nowMs()));
    expect(upcomingCollabs.length + upcoming).toBeGreaterThan(0);
  });

  it('has scanned and unscanned channels, and knows a collab when one of its channels is scanned', () => {
    const { world: w } = world(1500);
    const channels = [...w.eachChannel()];
    const scanned = channels.filter((channel) => channel.collab_scanned).length;
    expect(scanned).toBeGreaterThan(250);
    expect(scanned).toBeLessThan(1400);
    const listings = w.collabs.knownPublished(0, w.nowMs());
    expect(listings.length).toBeGreaterThan(100);
    for (const listing of listings.slice(0, 100)) expect(listing.members.some((idx) => channels[idx]!.collab_scanned)).toBe(true);
    const checked = new Set(w.collabs.checkedChannels(w.nowMs()));
    const listedOnly = channels.filter((channel) => !channel.collab_scanned && checked.has(channel.idx));
    expect(listedOnly.length).toBeGreaterThan(0);
    for (const channel of listedOnly.slice(0, 20)) expect(w.collabs.isChecked(channel.idx, false, w.nowMs())).toBe(true);
  });
});
