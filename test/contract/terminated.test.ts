/**
 * `GET /api/terminated-channels` on both engines: every field of the resource, every parameter's
 * range, every sort, every filter, the total and the pages, and who may call it.
 */
import { beforeAll, expect, it } from 'vitest';
import type { RouteInput, RouteOutput } from '../../src/core/routes.js';
import type { Service } from '../../src/core/service.js';
import { parseVideoLink } from '../../src/core/video-link.js';
import { dayNumber } from '../../src/engine/dates.js';
import { describeEachEngine, failure } from '../support/engines.js';

type Body = RouteOutput<'terminated.search'>;
type Channel = Body['channels'][number];
type Input = RouteInput<'terminated.search'>;

/** A keyword common enough to fill several pages of this world. */
const COMMON = 'gaming, music, cooking';

async function everyMatch(service: Service, input: Input): Promise<Channel[]> {
  const all: Channel[] = [];
  for (let page = 1; ; page += 1) {
    const body = await service.call('terminated.search', { ...input, page, per_page: 50 });
    all.push(...body.channels);
    if (page >= body.total_pages) return all;
  }
}

/** The value a sort orders by; unknown gains are null. */
const SORT_VALUE: Record<string, (channel: Channel) => number | null> = {
  subs: (c) => c.subscriber_count,
  views: (c) => c.view_count,
  videos: (c) => c.total_videos,
  age: (c) => dayNumber(c.terminated_date) - dayNumber(c.first_upload_date),
  views_24h: (c) => c.view_increase_24h,
  subs_24h: (c) => c.sub_increase_24h,
  views_48h: (c) => c.view_increase_48h,
  date: (c) => dayNumber(c.terminated_date),
  similarity: (c) => c.similarity_score,
};

describeEachEngine(
  'terminated-channel search',
  (get) => {
    let service: Service;
    let reference: number;
    beforeAll(async () => {
      service = get().as('starter');
      reference = dayNumber((await get().engine.platform()).info().reference_date);
    });

    it('finds channels by a keyword in their name or top video titles, with every field of the resource', async () => {
      const body = await service.call('terminated.search', { q: 'cooking', per_page: 10 });
      expect(body).toMatchObject({ success: true, page: 1, per_page: 10 });
      expect(body.total).toBeGreaterThan(10);
      expect(body.total_pages).toBe(Math.ceil(body.total / 10));
      expect(body.channels).toHaveLength(10);
      for (const channel of body.channels) {
        expect(Object.keys(channel).sort()).toEqual(
          [
            'channel_id', 'channel_title', 'subscriber_count', 'view_count', 'avg_views_per_video', 'total_videos', 'primary_language',
            'monetized', 'is_low_quality', 'thumbnail_url', 'first_upload_date', 'terminated_date', 'terminated_days_ago',
            'view_increase_24h', 'sub_increase_24h', 'view_increase_48h', 'sub_increase_48h', 'similarity_score', 'recent_videos',
          ].sort(),
        );
        const text = [channel.channel_title, ...channel.recent_videos.map((video) => video.title)].join(' ').toLowerCase();
        expect(text).toContain('cooking');
        expect(channel.channel_id).toMatch(/^UC[\w-]{22}$/);
        expect(channel.thumbnail_url).toMatch(/^https:\/\/.+\.jpg$/);
        expect(channel.first_upload_date < channel.terminated_date).toBe(true);
        expect(channel.terminated_days_ago).toBe(reference - dayNumber(channel.terminated_date));
        expect(channel.avg_views_per_video).toBe(Math.floor(channel.view_count / channel.total_videos));
        expect(channel.similarity_score).toBeGreaterThanOrEqual(0);
        expect(channel.similarity_score).toBeLessThanOrEqual(100);
        expect(channel.recent_videos.length).toBe(Math.min(3, channel.total_videos));
        const views = channel.recent_videos.map((video) => video.view_count);
        expect(views).toEqual([...views].sort((a, b) => b - a));
        for (const video of channel.recent_videos) {
          // A working link: the service's own parser reads the video's id back from it.
          expect(parseVideoLink(video.url)).toEqual({ ok: true, videoId: video.video_id });
          expect(video.thumbnail_url).toContain(video.video_id);
        }
      }
    });

    it('matches any of several comma-separated keywords, and folds accents', async () => {
      const [a, b, both] = await Promise.all(
        ['cooking', 'gaming', 'cooking, gaming'].map((q) => service.call('terminated.search', { q })),
      );
      expect(both.total).toBeGreaterThanOrEqual(Math.max(a!.total, b!.total));
      expect(both.total).toBeLessThanOrEqual(a!.total + b!.total);
      const accented = await service.call('terminated.search', { q: 'Lucía', per_page: 50 });
      const plain = await service.call('terminated.search', { q: 'lucia', per_page: 50 });
      expect(accented.total).toBeGreaterThan(0);
      expect(plain.channels.map((c) => c.channel_id)).toEqual(accented.channels.map((c) => c.channel_id));
    });

    it('pages through every match exactly once, and tells the total', async () => {
      const all = await everyMatch(service, { q: 'cooking' });
      const first = await service.call('terminated.search', { q: 'cooking' });
      expect(all.length).toBe(first.total);
      expect(new Set(all.map((channel) => channel.channel_id)).size).toBe(all.length);
      const beyond = await service.call('terminated.search', { q: 'cooking', page: 20, per_page: 50 });
      expect(beyond.channels).toEqual([]);
      expect(beyond.total).toBe(first.total);
      const none = await service.call('terminated.search', { q: 'qwertyzzz' });
      expect(none).toMatchObject({ total: 0, total_pages: 0, channels: [] });
    });

    it('orders by every sort field in both directions, unknown gains last', async () => {
      for (const [field, value] of Object.entries(SORT_VALUE)) {
        for (const direction of ['asc', 'desc'] as const) {
          const sort = `${field}_${direction}`;
          const channels = (await service.call('terminated.search', { q: COMMON, sort, per_page: 50 })).channels;
          expect(channels.length, sort).toBe(50);
          const values = channels.map(value);
          const known = values.filter((v): v is number => v !== null);
          expect(values.slice(0, known.length), `${sort}: unknown values last`).toEqual(known);
          const ordered = [...known].sort((x, y) => (direction === 'asc' ? x - y : y - x));
          expect(known, sort).toEqual(ordered);
        }
      }
      // The default is newest first.
      const byDefault = await service.call('terminated.search', { q: COMMON, per_page: 50 });
      const newest = await service.call('terminated.search', { q: COMMON, per_page: 50, sort: 'date_desc' });
      expect(byDefault.channels).toEqual(newest.channels);
    });

    it('keeps only channels within every bound, and counts them', async () => {
      const all = await everyMatch(service, { q: COMMON });
      const cases: Array<[Partial<Input>, (channel: Channel) => boolean]> = [
        [{ min_subs: 5000 }, (c) => c.subscriber_count >= 5000],
        [{ max_subs: 2000 }, (c) => c.subscriber_count <= 2000],
        [{ min_views: 1_000_000, max_views: 50_000_000 }, (c) => c.view_count >= 1_000_000 && c.view_count <= 50_000_000],
        [{ min_avg_views: 1000, max_avg_views: 100_000 }, (c) => c.avg_views_per_video >= 1000 && c.avg_views_per_video <= 100_000],
        [{ min_age: 200, max_age: 900 }, (c) => SORT_VALUE.age!(c)! >= 200 && SORT_VALUE.age!(c)! <= 900],
        [{ min_uploads: 50, max_uploads: 400 }, (c) => c.total_videos >= 50 && c.total_videos <= 400],
        [{ min_views_24h: 500 }, (c) => c.view_increase_24h !== null && c.view_increase_24h >= 500],
        [{ max_views_24h: 100 }, (c) => c.view_increase_24h !== null && c.view_increase_24h <= 100],
        [{ min_views_48h: 1000, max_views_48h: 1_000_000 }, (c) => c.view_increase_48h !== null && c.view_increase_48h >= 1000 && c.view_increase_48h <= 1_000_000],
        [{ monetized: 'yes' }, (c) => c.monetized],
        [{ monetized: 'no' }, (c) => !c.monetized],
        [{ languages: 'es,pt' }, (c) => ['es', 'pt'].includes(c.primary_language)],
        [{ languages: 'Spanish, Portuguese' }, (c) => ['es', 'pt'].includes(c.primary_language)],
        [{ min_subs: 1000, monetized: 'yes', languages: 'en' }, (c) => c.subscriber_count >= 1000 && c.monetized && c.primary_language === 'en'],
      ];
      for (const [filters, keeps] of cases) {
        const label = JSON.stringify(filters);
        const expected = all.filter(keeps);
        expect(expected.length, `${label} keeps some`).toBeGreaterThan(0);
        expect(expected.length, `${label} drops some`).toBeLessThan(all.length);
        const body = await service.call('terminated.search', { q: COMMON, ...filters, per_page: 50 });
        expect(body.total, label).toBe(expected.length);
        expect(body.channels.map((c) => c.channel_id), label).toEqual(expected.slice(0, 50).map((c) => c.channel_id));
      }
    });

    it('refuses out-of-range parameters with a 400 naming the parameter and its range', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{}, /q: is required/],
        [{ q: '   ' }, /q: must not be empty/],
        [{ q: ' , ,- ' }, /q: give at least one keyword/],
        [{ q: Array.from({ length: 11 }, (_, i) => `word${i}`).join(',') }, /q: has 11 keywords; give at most 10/],
        [{ q: 'x'.repeat(501) }, /q: must be at most 500 characters/],
        [{ q: 'cooking', page: 0 }, /page: must be an integer from 1 to 20/],
        [{ q: 'cooking', page: 21 }, /page: must be an integer from 1 to 20/],
        [{ q: 'cooking', per_page: 0 }, /per_page: must be an integer from 1 to 50/],
        [{ q: 'cooking', per_page: 51 }, /per_page: must be an integer from 1 to 50/],
        [{ q: 'cooking', sort: 'likes_desc' }, /sort: must be \{field\}_asc or \{field\}_desc with field one of: subs, views, videos, age, views_24h, subs_24h, views_48h, date, similarity/],
        [{ q: 'cooking', sort: 'subs' }, /sort: must be/],
        [{ q: 'cooking', monetized: 'maybe' }, /monetized: must be one of: yes, no/],
        [{ q: 'cooking', languages: 'klingon' }, /languages: "klingon" is not a language/],
        [{ q: 'cooking', min_subs: 5000, max_subs: 10 }, /min_subs: is 5000, more than max_subs \(10\)/],
        ...['min_subs', 'max_subs', 'min_views', 'max_views', 'min_avg_views', 'max_avg_views', 'min_age', 'max_age', 'min_uploads', 'max_uploads', 'min_views_24h', 'max_views_24h', 'min_views_48h', 'max_views_48h'].flatMap(
          (name): Array<[Record<string, unknown>, RegExp]> => [
            [{ q: 'cooking', [name]: -1 }, new RegExp(`${name}: must be an integer of at least 0`)],
            [{ q: 'cooking', [name]: 'many' }, new RegExp(`${name}: must be an integer of at least 0`)],
          ],
        ),
      ];
      for (const [input, message] of cases) {
        const error = await failure(service.call('terminated.search', input as Input));
        expect(error.status, JSON.stringify(input)).toBe(400);
        expect(error.message).toMatch(message);
      }
      // The edges of every range are accepted.
      await service.call('terminated.search', { q: 'cooking', page: 20, per_page: 50, min_subs: 0, max_views_48h: 0, sort: 'similarity_asc' });
    });

    it('is available on every plan, but needs a subscription and a key', async () => {
      for (const plan of ['starter', 'professional', 'ultimate'] as const) {
        expect((await get().as(plan).call('terminated.search', { q: 'cooking' })).total).toBeGreaterThan(0);
      }
      expect((await failure(get().as('none').call('terminated.search', { q: 'cooking' }))).status).toBe(403);
      expect((await failure(get().withKey(undefined).call('terminated.search', { q: 'cooking' }))).status).toBe(401);
    });
  },
  { world: { seed: 3, channels: 100, terminated: 3000 }, postgres: true },
);
