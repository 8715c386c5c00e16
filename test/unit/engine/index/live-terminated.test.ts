/**
 * The live store of terminated channels: keys that keep "newest first" whatever order channels
 * arrive in, recording (and recording again) through recordTerminatedChannels, the naming that
 * reads stored ids back, and the same search as the sample world's — every plan giving the same
 * pages over sparse keys.
 */
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { dayNumber } from '../../../../src/engine/dates.js';
import { dayOfKey, keySlots, LAST_KEY_DAY } from '../../../../src/engine/index/terminated/live-keys.js';
import { recordTerminatedChannels, type LiveTerminatedRecord } from '../../../../src/engine/index/terminated/live-records.js';
import { liveTerminatedHoldsData } from '../../../../src/engine/index/terminated/live-schema.js';
import { liveTerminatedNaming, liveTerminatedSource, openLiveTerminated } from '../../../../src/engine/index/terminated/live-source.js';
import type { SearchPlan, TerminatedQuery, TerminatedReader } from '../../../../src/engine/index/terminated/reader.js';
import { parseKeyword, type SearchKeyword } from '../../../../src/engine/index/terminated/search-text.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const TODAY = dayNumber('2026-11-21');

const keywords = (q: string) => q.split(',').map(parseKeyword).filter((keyword): keyword is SearchKeyword => keyword !== null);
const query = (q: string, extra: Partial<TerminatedQuery> = {}): TerminatedQuery => ({ keywords: keywords(q), sort: 'date', direction: 'desc', offset: 0, limit: 50, ...extra });

/** A channel id from a number: UC + 22 characters. */
const channelId = (n: number) => `UC${String(n).padStart(22, 'x')}`;
const videoId = (n: number, k: number) => `v${String(n).padStart(8, '0')}_${k}`;

function record(n: number, extra: Partial<LiveTerminatedRecord> = {}): LiveTerminatedRecord {
  return {
    channel_id: channelId(n),
    channel_title: `Channel ${n}`,
    terminated_at: '2026-11-01T10:00:00Z',
    subscribers: null,
    total_views: null,
    video_count: null,
    views_24h: null,
    views_48h: null,
    subs_24h: null,
    subs_48h: null,
    ...extra,
  };
}

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

let db: Database.Database;
let reader: TerminatedReader;
beforeEach(() => {
  db = new Database(':memory:');
  reader = openLiveTerminated(db, () => NOW);
});

describe('live terminated keys', () => {
  it('order terminations newest first: a later day or a later second gets a smaller key', () => {
    const at = (iso: string) => keySlots(Date.parse(iso)).second.from;
    expect(at('2026-11-21T00:00:01Z')).toBeLessThan(at('2026-11-21T00:00:00Z'));
    expect(at('2026-11-22T00:00:00Z')).toBeLessThan(at('2026-11-21T23:59:59Z'));
    // A day's overflow keys come after all of its seconds, before the day before.
    const day = keySlots(Date.parse('2026-11-21T00:00:00Z'));
    expect(day.overflow.from).toBeGreaterThanOrEqual(day.second.to);
    expect(day.overflow.to).toBeLessThanOrEqual(keySlots(Date.parse('2026-11-20T23:59:59Z')).second.from);
    expect(dayOfKey(day.second.from)).toBe(dayNumber('2026-11-21'));
    expect(dayOfKey(day.overflow.to - 1)).toBe(dayNumber('2026-11-21'));
  });

  it('stay exact JavaScript numbers from 1970 to the last keyable day, and refuse days beyond', () => {
    expect(Number.isSafeInteger(keySlots(0).overflow.to - 1)).toBe(true);
    expect(keySlots(0).overflow.to - 1).toBe(2 ** 53 - 1);
    expect(keySlots(LAST_KEY_DAY * 86_400_000).second.from).toBeGreaterThanOrEqual(0);
    expect(() => keySlots(-1)).toThrow(RangeError);
    expect(() => keySlots((LAST_KEY_DAY + 1) * 86_400_000)).toThrow(RangeError);
  });
});

describe('recording terminated channels', () => {
  it('stores what it is given, names rows by their stored ids, and answers null for what it was not given', () => {
    expect(liveTerminatedHoldsData(db)).toBe(false);
    recordTerminatedChannels(db, [
      record(1, {
        channel_title: 'Cozy Cooking with Jane',
        terminated_at: '2026-11-19T08:15:00Z',
        subscribers: 120_000,
        total_views: 9_000_000,
        video_count: 300,
        views_24h: 4000,
        views_48h: 9000,
        subs_24h: -20,
        subs_48h: 15,
        language_code: 'en',
        content_type: 'longform',
        first_upload_date: '2021-03-02',
        thumbnail_url: 'https://yt3.example/jane.jpg',
        monetized: true,
        top_videos: [
          { video_id: 'aaaaaaaaaa1', title: 'Sourdough at home', views: 50_000, kind: 'long' },
          { video_id: 'aaaaaaaaaa2', title: 'Knife skills', views: 900_000, kind: 'long' },
          { video_id: 'aaaaaaaaaa3', title: 'One-pot pasta', views: 1_000, kind: 'short' },
          { video_id: 'aaaaaaaaaa4', title: 'Pancakes', views: 70_000, kind: 'short' },
        ],
      }),
      record(2),
    ]);
    expect(liveTerminatedHoldsData(db)).toBe(true);
    const jane = reader.byId(channelId(1))!;
    expect(jane).toEqual({
      channel_id: channelId(1),
      title: 'Cozy Cooking with Jane',
      language_code: 'en',
      subscribers: 120_000,
      total_views: 9_000_000,
      avg_views_per_video: 30_000,
      video_count: 300,
      monetized: true,
      low_quality: null,
      thumbnail_url: 'https://yt3.example/jane.jpg',
      first_upload_date: '2021-03-02',
      terminated_date: '2026-11-19',
      terminated_days_ago: 2,
      age_days: dayNumber('2026-11-19') - dayNumber('2021-03-02'),
      views_24h: 4000,
      subs_24h: -20,
      views_48h: 9000,
      subs_48h: 15,
      similarity: 0,
      top_videos: [
        { video_id: 'aaaaaaaaaa2', title: 'Knife skills', views: 900_000, kind: 'long', thumbnail_url: 'https://i.ytimg.com/vi/aaaaaaaaaa2/hqdefault.jpg', url: 'https://www.youtube.com/watch?v=aaaaaaaaaa2' },
        { video_id: 'aaaaaaaaaa4', title: 'Pancakes', views: 70_000, kind: 'short', thumbnail_url: 'https://i.ytimg.com/vi/aaaaaaaaaa4/hqdefault.jpg', url: 'https://www.youtube.com/shorts/aaaaaaaaaa4' },
        { video_id: 'aaaaaaaaaa1', title: 'Sourdough at home', views: 50_000, kind: 'long', thumbnail_url: 'https://i.ytimg.com/vi/aaaaaaaaaa1/hqdefault.jpg', url: 'https://www.youtube.com/watch?v=aaaaaaaaaa1' },
      ],
    });
    // Nothing given: nothing invented.
    expect(reader.byId(channelId(2))).toMatchObject({
      subscribers: null, total_views: null, avg_views_per_video: null, video_count: null, monetized: null, low_quality: null,
      thumbnail_url: null, first_upload_date: null, age_days: null, language_code: null, views_24h: null, top_videos: [],
    });
    const naming = liveTerminatedNaming(db);
    expect(naming.channelIdx(channelId(3))).toBeNull();
    expect(naming.channelId(naming.channelIdx(channelId(1))!)).toBe(channelId(1));
    expect(reader.byId(channelId(3))).toBeNull();
    expect(reader.count).toBe(2);
  });

  it('updates a channel recorded again: no duplicate, the earlier termination kept, known figures not forgotten', () => {
    recordTerminatedChannels(db, [record(1, { channel_title: 'Old Name', terminated_at: '2026-11-10T00:00:00Z', subscribers: 500, views_24h: 40, top_videos: [{ video_id: 'bbbbbbbbbb1', title: 'Ferment', views: 5, kind: 'long' }] })]);
    recordTerminatedChannels(db, [record(2, { terminated_at: '2026-11-05' })]);
    recordTerminatedChannels(db, [record(1, { channel_title: 'New Name', terminated_at: '2026-11-12T00:00:00Z', subscribers: null, total_views: 7000, views_24h: 60 })]);
    expect(reader.count).toBe(2);
    expect(reader.byId(channelId(1))).toMatchObject({ title: 'New Name', terminated_date: '2026-11-10', subscribers: 500, total_views: 7000, views_24h: 60 });
    expect(reader.search(query('old')).total).toBe(0);
    expect(reader.search(query('new name')).channels.map((channel) => channel.channel_id)).toEqual([channelId(1)]);
    expect(reader.search(query('ferment')).total).toBe(1); // the stored top videos stay when none are given
    // An earlier termination moves the channel in the order.
    recordTerminatedChannels(db, [record(1, { terminated_at: '2026-11-01' })]);
    expect(reader.search(query('channel, name')).channels.map((channel) => [channel.channel_id, channel.terminated_date])).toEqual([
      [channelId(2), '2026-11-05'],
      [channelId(1), '2026-11-01'],
    ]);
    expect(db.prepare('SELECT day, n FROM live_terminated_days ORDER BY day').all()).toEqual([
      { day: dayNumber('2026-11-01'), n: 1 },
      { day: dayNumber('2026-11-05'), n: 1 },
    ]);
  });

  it('records nothing when one record is bad, and says which and why', () => {
    const bad: Array<[Partial<LiveTerminatedRecord>, RegExp]> = [
      [{ channel_id: 'UCshort' }, /record 1 \(UCshort\): channel_id: must be a 24-character channel id/],
      [{ terminated_at: 'last tuesday' }, /terminated_at: must be an ISO 8601 date/],
      [{ terminated_at: '2004-12-31' }, /terminated_at: is before 2005-02-14/],
      [{ subscribers: -1 }, /subscribers: must not be negative/],
      [{ views_24h: 1.5 }, /views_24h: must be a whole number/],
      [{ first_upload_date: '2026-11-02' }, /first_upload_date: is after the termination date/],
      [{ top_videos: [{ video_id: 'short', title: 'x', views: 1, kind: 'long' }] }, /top_videos.0.video_id: must be an 11-character video id/],
      [{ subscribers: 5, extra: 1 } as Partial<LiveTerminatedRecord>, /extra/],
    ];
    for (const [change, message] of bad) {
      expect(() => recordTerminatedChannels(db, [record(1), record(2, change)]), message.source).toThrow(message);
    }
    expect(liveTerminatedHoldsData(db)).toBe(false);
  });

  it('keeps newest first whatever order channels arrive in, dates without a time last on their day', () => {
    const times = ['2026-11-20T23:59:59Z', '2025-01-01', '2026-11-20', '2026-11-20T12:00:00Z', '2026-11-21T00:00:00Z', '2024-06-30T06:00:00+02:00'];
    const shuffled = [3, 0, 5, 1, 4, 2];
    for (const n of shuffled) recordTerminatedChannels(db, [record(n, { terminated_at: times[n]! })]);
    const newest = reader.search(query('channel')).channels.map((channel) => channel.channel_id);
    const expected = [...times.keys()].sort((a, b) => Date.parse(times[b]!) - Date.parse(times[a]!)).map(channelId);
    expect(newest).toEqual(expected);
    expect(reader.search(query('channel', { direction: 'asc' })).channels.map((channel) => channel.channel_id)).toEqual([...expected].reverse());
  });

  it('tells apart channels terminated in the same second, past the second\'s keys', () => {
    const at = Date.parse('2026-11-01T10:00:00Z');
    const { second } = keySlots(at);
    // As if 32,767 channels already took that second's keys but the last.
    db.prepare("INSERT INTO live_terminated (idx, channel_id, title, terminated_day, terminated_ms, top_videos, recorded_ms, updated_ms) VALUES (?, 'UCfillerfillerfillerfill', 'filler', ?, ?, '[]', 0, 0)")
      .run(second.to - 2, dayNumber('2026-11-01'), at);
    recordTerminatedChannels(db, [record(1), record(2), record(3, { terminated_at: '2026-11-01T10:00:01Z' })]);
    const keys = db.prepare('SELECT channel_id, idx FROM live_terminated ORDER BY idx').all() as Array<{ channel_id: string; idx: number }>;
    expect(keys.map((row) => row.channel_id)).toEqual([channelId(3), 'UCfillerfillerfillerfill', channelId(1), channelId(2)]);
    expect(keys[2]!.idx).toBe(second.to - 1);
    expect(keys[3]!.idx).toBe(keySlots(at).overflow.from);
  });
});

describe('searching the live store', () => {
  const WORDS = ['cooking', 'gaming', 'music', 'lofi', 'kitchen', 'travel', 'news', 'cats'];

  /** 600 channels over three years, in random order; about a third of every figure unknown. */
  function fill(count = 600): void {
    const next = random(7);
    const known = <T>(value: T): T | null => (next() < 0.33 ? null : value);
    const records: LiveTerminatedRecord[] = [];
    for (let n = 0; n < count; n++) {
      const word = WORDS[Math.floor(next() * WORDS.length)]!;
      const other = WORDS[Math.floor(next() * WORDS.length)]!;
      const day = TODAY - Math.floor(next() * 1100);
      const seconds = Math.floor(next() * 86_400);
      const title = next() < 0.5 ? `${word} with ${n}` : `The ${word} ${other} show ${n}`;
      records.push(
        record(n, {
          channel_title: title,
          terminated_at: next() < 0.3 ? new Date(day * 86_400_000).toISOString().slice(0, 10) : new Date(day * 86_400_000 + seconds * 1000).toISOString(),
          subscribers: known(Math.floor(next() * 1e6)),
          total_views: known(Math.floor(next() * 1e8)),
          video_count: known(1 + Math.floor(next() * 500)),
          views_24h: known(Math.floor(next() * 1e4)),
          views_48h: known(Math.floor(next() * 2e4)),
          subs_24h: known(Math.floor(next() * 100) - 20),
          subs_48h: known(Math.floor(next() * 200) - 40),
          language_code: known(next() < 0.5 ? 'en' : 'es'),
          first_upload_date: known(new Date((day - 30 - Math.floor(next() * 2000)) * 86_400_000).toISOString().slice(0, 10)),
          monetized: known(next() < 0.5),
          top_videos: [{ video_id: videoId(n, 0), title: `${other} video`, views: Math.floor(next() * 1e6), kind: next() < 0.5 ? 'long' : 'short' }],
        }),
      );
    }
    recordTerminatedChannels(db, records);
  }

  function allPages(q: TerminatedQuery, plan?: SearchPlan): string[] {
    const ids: string[] = [];
    for (let offset = 0; ; offset += 50) {
      const page = reader.search({ ...q, offset, limit: 50 }, plan ? { plan } : {}).channels.map((channel) => channel.channel_id);
      ids.push(...page);
      if (page.length < 50) return ids;
    }
  }

  it('finds names and video titles, filters unknown figures out, and sorts them last both ways', () => {
    fill();
    const all = reader.search(query('cooking'));
    expect(all.total).toBe(allPages(query('cooking')).length);
    expect(all.total).toBeGreaterThan(60);
    const subsDesc = allPages(query('cooking', { sort: 'subs' })).map((id) => reader.byId(id)!.subscribers);
    const subsAsc = allPages(query('cooking', { sort: 'subs', direction: 'asc' })).map((id) => reader.byId(id)!.subscribers);
    for (const order of [subsDesc, subsAsc]) {
      const firstNull = order.indexOf(null);
      expect(firstNull).toBeGreaterThan(0);
      expect(order.slice(firstNull).every((value) => value === null)).toBe(true);
    }
    const knownDesc = subsDesc.filter((value): value is number => value !== null);
    expect(knownDesc).toEqual([...knownDesc].sort((a, b) => b - a));
    const filtered = reader.search(query('cooking', { ranges: { subs: { min: 0 } }, monetized: false, languages: ['es'] }));
    for (const channel of filtered.channels) {
      expect(channel.subscribers).not.toBeNull();
      expect(channel.monetized).toBe(false);
      expect(channel.language_code).toBe('es');
    }
    expect(filtered.total).toBeLessThan(all.total);
    const byDate = reader.search(query('cooking')).channels.map((channel) => channel.terminated_date);
    expect(byDate).toEqual([...byDate].sort().reverse());
    expect(reader.search(query('cooking', { sort: 'similarity' })).channels[0]!.similarity).toBeGreaterThan(70);
  });

  it('gives the same pages by every plan over sparse keys', () => {
    fill(1000);
    const page = (q: TerminatedQuery, offset: number, plan: SearchPlan) => reader.search({ ...q, offset, limit: 50 }, { plan }).channels.map((channel) => channel.channel_id);
    for (const sort of ['subs', 'views', 'videos', 'age', 'views_24h', 'subs_24h', 'views_48h'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const q = query('the', { sort, direction });
        const expected = allPages(q, 'keyword-first');
        expect(expected.length).toBeGreaterThan(300);
        // The first page, one in the middle, and the last (the unknown figures).
        for (const offset of [0, 150, expected.length - 20]) {
          const wanted = expected.slice(offset, offset + 50);
          expect(page(q, offset, 'sort-index-match-set'), `${sort} ${direction} match set at ${offset}`).toEqual(wanted);
          expect(page(q, offset, 'sort-index-probe'), `${sort} ${direction} probe at ${offset}`).toEqual(wanted);
        }
      }
    }
    for (const direction of ['asc', 'desc'] as const) {
      const q = query('cooking', { sort: 'similarity', direction });
      expect(allPages(q, 'similarity-tiers'), direction).toEqual(allPages(q, 'keyword-first'));
    }
  });

  it('places a key in newest-first order from the channels per day', () => {
    fill(300);
    const source = liveTerminatedSource(db, () => NOW);
    const keys = db.prepare('SELECT idx FROM live_terminated ORDER BY idx').pluck().all() as number[];
    expect(source.count()).toBe(300);
    const places = keys.map((key) => source.placeOf(key));
    expect(places).toEqual([...places].sort((a, b) => a - b));
    // Within a day's count of the truth.
    const perDay = Math.max(...(db.prepare('SELECT n FROM live_terminated_days').pluck().all() as number[]));
    keys.forEach((key, place) => expect(Math.abs(source.placeOf(key) - place)).toBeLessThanOrEqual(perDay));
  });
});
