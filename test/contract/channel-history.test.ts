import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { DAY_MS, dayToIso } from '../../src/engine/dates.js';
import type { ScannedChannel } from '../../src/engine/index/channels.js';
import { describeEachEngine, failure } from '../support/engines.js';

describeEachEngine(
  'channel history',
  (get) => {
    let user: Service;
    let channel: ScannedChannel;
    beforeAll(async () => {
      user = get().as('starter');
      const index = await get().engine.index();
      for await (const page of index.channels.scan()) {
        channel = page[3]!;
        break;
      }
    });

    it('answers one point per day, ending today, with the index\'s daily figures', async () => {
      const body = await user.call('channels.history', { channel_id: channel.channel_id, days: 30 });
      expect(body).toMatchObject({ success: true, channel_id: channel.channel_id, title: channel.title, days: 30 });
      expect(body.points).toHaveLength(30);
      const { statistics } = await get().engine.index();
      const stats = await statistics.dailyStats(channel.channel_id, body.points[0]!.date, body.points.at(-1)!.date);
      const today = Math.ceil((await get().engine.platform()).nowMs() / DAY_MS) - 1;
      expect(body.points.at(-1)!.date).toBe(dayToIso(today));
      for (const point of body.points) {
        const stat = stats.find((entry) => entry.date === point.date);
        expect(point.subscribers).toBe(stat?.subscribers ?? null);
        expect(point.views).toBe(stat?.views ?? null);
      }
    });

    it('counts videos by the end of each day from the videos the index lists, today\'s being the channel\'s count', async () => {
      const body = await user.call('channels.history', { channel_id: channel.channel_id, days: 365 });
      const known = await (await get().engine.index()).channels.byId(channel.channel_id);
      expect(body.points.at(-1)!.videos).toBe(known!.video_count);
      const counts = body.points.map((point) => point.videos).filter((count): count is number => count !== null);
      expect(counts.length).toBeGreaterThan(0);
      for (let i = 1; i < counts.length; i++) expect(counts[i]!).toBeGreaterThanOrEqual(counts[i - 1]!);
    });

    it('refuses days outside 1..365 and a malformed id with 400, and an unknown channel with 404', async () => {
      for (const days of [0, 366]) {
        const error = await failure(user.call('channels.history', { channel_id: channel.channel_id, days }));
        expect(error.status).toBe(400);
        expect(error.message).toMatch(/days/);
      }
      expect((await failure(user.call('channels.history', { channel_id: 'nope' }))).status).toBe(400);
      expect((await failure(user.call('channels.history', { channel_id: 'UC' + 'x'.repeat(22) }))).status).toBe(404);
    });

    it('needs an active plan', async () => {
      expect((await failure(get().as('none').call('channels.history', { channel_id: channel.channel_id }))).status).toBe(403);
    });
  },
  { world: { seed: 11, channels: 200, terminated: 0 } },
);
