/**
 * Terminated-channel search on a live data dir, on both engines: the channels come from the live
 * store, loaded either by the refresh sweep's call (recordTerminatedChannels) or by
 * `engine import terminated` (importTerminated), and the search answers them exactly as on the
 * sample platform — keywords, filters, sorts, pages, totals — with null for every figure the store
 * was never given. `terminated show` and resolve's `channel_terminated` read the same store.
 */
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { RouteOutput } from '../../src/core/routes.js';
import type { Service } from '../../src/core/service.js';
import { ManualClock } from '../../src/engine/clock.js';
import { dayNumber } from '../../src/engine/dates.js';
import type { Engine } from '../../src/engine/engine.js';
import { importTerminated } from '../../src/engine/features/terminated/import/import-terminated.js';
import { recordTerminatedChannelsIn, type LiveTerminatedRecord } from '../../src/engine/index/terminated/live-records.js';
import { liveTerminatedTablesExist } from '../../src/engine/index/terminated/live-schema.js';
import { describeEachEngine, failure } from '../support/engines.js';
import { startFixtureServer, type FixtureServer } from '../support/platform-fixture-server.js';

type Channel = RouteOutput<'terminated.search'>['channels'][number];

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
/** The fixture site's terminated channel: the platform says so, and the store has its record. */
const GONE = 'UCtubekitTerminatedChan1';
const id = (n: number) => `UC${String(n).padStart(22, 'q')}`;

const WORDS = ['cooking', 'gaming', 'music'];
/** 45 channels: a third of them with every figure, a third with some, a third with none. */
const RECORDS: LiveTerminatedRecord[] = Array.from({ length: 45 }, (_, n): LiveTerminatedRecord => {
  const word = WORDS[n % 3]!;
  const full = n % 3 === 0;
  const some = n % 3 === 1;
  return {
    channel_id: n === 0 ? GONE : id(n),
    channel_title: `${word[0]!.toUpperCase()}${word.slice(1)} channel ${n}`,
    terminated_at: new Date(NOW - (n + 1) * 20 * 3_600_000).toISOString(),
    subscribers: full || some ? 1000 * (n + 1) : null,
    total_views: full ? 50_000 * (n + 1) : null,
    video_count: full ? 10 + n : null,
    views_24h: full ? 100 * n : null,
    views_48h: full ? 250 * n : null,
    subs_24h: full ? n - 5 : null,
    subs_48h: full ? 2 * n - 5 : null,
    language_code: full ? (n % 2 === 0 ? 'en' : 'es') : null,
    first_upload_date: full ? '2022-01-15' : null,
    monetized: full ? n % 2 === 0 : null,
    thumbnail_url: full ? `https://yt3.example/${n}.jpg` : null,
    top_videos: full || some ? [{ video_id: `vid${String(n).padStart(8, '0')}`, title: `Best ${WORDS[(n + 1) % 3]} moments`, views: 500 * n, kind: n % 2 ? 'short' : 'long' }] : [],
  };
});

/** The same channels as import lines: the fields of the spec's terminated channel. */
const LINES = RECORDS.map((record) =>
  JSON.stringify({
    channel_id: record.channel_id,
    channel_title: record.channel_title,
    terminated_date: record.terminated_at,
    subscriber_count: record.subscribers,
    view_count: record.total_views,
    total_videos: record.video_count,
    primary_language: record.language_code,
    monetized: record.monetized,
    thumbnail_url: record.thumbnail_url,
    first_upload_date: record.first_upload_date,
    view_increase_24h: record.views_24h,
    sub_increase_24h: record.subs_24h,
    view_increase_48h: record.views_48h,
    sub_increase_48h: record.subs_48h,
    recent_videos: record.top_videos!.map((video) => ({
      video_id: video.video_id,
      title: video.title,
      view_count: video.views,
      url: video.kind === 'short' ? `https://www.youtube.com/shorts/${video.video_id}` : `https://www.youtube.com/watch?v=${video.video_id}`,
    })),
  }),
);

const LOADERS: Record<string, (engine: Engine) => Promise<void>> = {
  'recorded by the sweep': async (engine) => {
    // The sweep's path: the engine's live terminated store (the data dir's SQLite, or the fleet's PostgreSQL).
    const store = await engine.liveTerminatedStore();
    await recordTerminatedChannelsIn(store, RECORDS.slice(0, 20));
    await recordTerminatedChannelsIn(store, RECORDS.slice(20));
  },
  'loaded by import': async (engine) => {
    const summary = await importTerminated(engine, Readable.from([`${LINES.slice(0, 30).join('\n')}\n`, `${LINES.slice(30).join('\n')}\n`]));
    expect(summary).toEqual({ dry_run: false, lines: 45, loaded: 45, updated: 0, refused: 0, errors: [] });
  },
};

const FIELDS = [
  'channel_id', 'channel_title', 'subscriber_count', 'view_count', 'avg_views_per_video', 'total_videos', 'primary_language', 'monetized',
  'is_low_quality', 'thumbnail_url', 'first_upload_date', 'terminated_date', 'terminated_days_ago', 'view_increase_24h', 'sub_increase_24h',
  'view_increase_48h', 'sub_increase_48h', 'similarity_score', 'recent_videos',
].sort();

let fixture: FixtureServer;
beforeAll(async () => {
  fixture = await startFixtureServer([
    { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: GONE }, file: 'channel-terminated.json' },
    // The site's own NOT_FOUND answer for a channel id it knows nothing of (a bare 404 would be a failed read).
    { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: id(99) }, status: 404, body: '{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}' },
  ]);
  vi.stubEnv('TUBEKIT_PLATFORM_ORIGIN', fixture.origin);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await fixture.close();
});

for (const [how, load] of Object.entries(LOADERS)) {
  describeEachEngine(
    `terminated search on a live data dir, channels ${how}`,
    (get) => {
      let service: Service;
      beforeAll(async () => {
        await get().engine.localSettings.set('platform', 'live');
        await load(get().engine);
        service = get().as('starter');
      });

      it('keeps the channels where the engine keeps its state: the data dir\'s SQLite, or the fleet\'s PostgreSQL (and not the data dir)', async () => {
        const { engine, store } = get();
        expect(liveTerminatedTablesExist(engine.db)).toBe(store === 'sqlite');
        if (store === 'postgres') expect((await engine.store.get<{ n: number }>('SELECT count(*) AS n FROM live_terminated'))!.n).toBe(45);
      });

      it('answers the stored channels, newest first, with every field of the resource and null for what was never known', async () => {
        const body = await service.call('terminated.search', { q: 'cooking', per_page: 5 });
        expect(body).toMatchObject({ success: true, page: 1, per_page: 5, total: 15, total_pages: 3 });
        const dates = body.channels.map((channel) => channel.terminated_date);
        expect(dates).toEqual([...dates].sort().reverse());
        for (const channel of body.channels) expect(Object.keys(channel).sort()).toEqual(FIELDS);
        const first = body.channels[0]!;
        expect(first).toEqual({
          channel_id: GONE,
          channel_title: 'Cooking channel 0',
          subscriber_count: 1000,
          view_count: 50_000,
          avg_views_per_video: 5000,
          total_videos: 10,
          primary_language: 'en',
          monetized: true,
          is_low_quality: null,
          thumbnail_url: 'https://yt3.example/0.jpg',
          first_upload_date: '2022-01-15',
          terminated_date: '2026-11-20',
          terminated_days_ago: 1,
          view_increase_24h: 0,
          sub_increase_24h: -5,
          view_increase_48h: 0,
          sub_increase_48h: -5,
          similarity_score: 80, // 70 for the keyword in the name, plus 30 × 1 of its 3 words
          recent_videos: [
            { video_id: 'vid00000000', title: 'Best gaming moments', view_count: 0, thumbnail_url: 'https://i.ytimg.com/vi/vid00000000/hqdefault.jpg', url: 'https://www.youtube.com/watch?v=vid00000000' },
          ],
        });
        const unknown = (await service.call('terminated.search', { q: 'channel 2', per_page: 1 })).channels[0]!;
        expect(unknown).toMatchObject({
          channel_title: 'Music channel 2', subscriber_count: null, view_count: null, avg_views_per_video: null, total_videos: null, primary_language: null,
          monetized: null, thumbnail_url: null, first_upload_date: null, view_increase_24h: null, recent_videos: [],
          terminated_days_ago: Math.floor(NOW / 86_400_000) - dayNumber(unknown.terminated_date),
        });
      });

      it('sorts with unknown figures last both ways, filters them out, and pages and counts as on the sample platform', async () => {
        const subs = async (sort: string) => (await service.call('terminated.search', { q: 'channel', sort, per_page: 50 })).channels.map((c: Channel) => c.subscriber_count);
        const desc = await subs('subs_desc');
        const asc = await subs('subs_asc');
        expect(desc).toHaveLength(45);
        expect(desc.slice(0, 30)).toEqual([...desc.slice(0, 30)].sort((a, b) => b! - a!));
        expect(asc.slice(0, 30)).toEqual([...desc.slice(0, 30)].reverse());
        for (const order of [desc, asc]) expect(order.slice(30)).toEqual(Array(15).fill(null));
        const dateAsc = (await service.call('terminated.search', { q: 'channel', sort: 'date_asc', per_page: 3 })).channels.map((c) => c.channel_id);
        expect(dateAsc).toEqual([id(44), id(43), id(42)]);

        const filtered = await service.call('terminated.search', { q: 'channel', min_subs: 1, monetized: 'no', languages: 'Spanish', per_page: 50 });
        expect(filtered.total).toBe(RECORDS.filter((r) => r.monetized === false && r.language_code === 'es').length);
        for (const channel of filtered.channels) expect(channel).toMatchObject({ monetized: false, primary_language: 'es' });
        const gains = await service.call('terminated.search', { q: 'channel', min_views_24h: 0, per_page: 50 });
        expect(gains.total).toBe(15);

        const pages = [];
        for (let page = 1; page <= 3; page++) pages.push(...(await service.call('terminated.search', { q: 'channel', page, per_page: 20 })).channels.map((c) => c.channel_id));
        expect(pages).toEqual([GONE, ...Array.from({ length: 44 }, (_, n) => id(n + 1))]);
        const last = await service.call('terminated.search', { q: 'channel', page: 3, per_page: 20 });
        expect(last).toMatchObject({ total: 45, total_pages: 3 });
        // Video titles are searched too; similarity ranks names first.
        const similar = await service.call('terminated.search', { q: 'gaming', sort: 'similarity_desc', per_page: 50 });
        expect(similar.total).toBe(30);
        expect(similar.channels.slice(0, 15).every((c) => c.channel_title.startsWith('Gaming'))).toBe(true);
        expect(similar.channels.slice(15).every((c) => c.similarity_score === 40)).toBe(true);
      });

      it('shows one stored channel by id, 404 for an id it never recorded, 400 for a malformed one', async () => {
        const found = (await service.call('terminated.search', { q: 'channel 7', per_page: 1 })).channels[0]!;
        expect(await service.call('terminated.show', { channel_id: found.channel_id })).toEqual({ success: true, channel: { ...found, similarity_score: null } });
        expect((await failure(service.call('terminated.show', { channel_id: id(99) }))).status).toBe(404);
        expect((await failure(service.call('terminated.show', { channel_id: 'UCshort' }))).status).toBe(400);
        expect((await failure(service.call('terminated.search', { q: ',' }))).status).toBe(400);
      });

      it('answers resolve of a recorded channel the site says is terminated with 404 channel_terminated, and an unknown one as unknown', async () => {
        const error = await failure(service.call('channels.resolve', { input: GONE }));
        expect(error).toMatchObject({ status: 404, code: 'channel_terminated' });
        expect(error.message).toBe(`Channel ${GONE} ("Cooking channel 0") was terminated on 2026-11-20 (1 day ago): the platform no longer shows it.`);
        expect(await service.call('channels.resolve', { input: id(99) })).toMatchObject({ channel_id: id(99), known: false, title: null });
      });
    },
    { clock: new ManualClock(NOW), postgres: true },
  );
}
