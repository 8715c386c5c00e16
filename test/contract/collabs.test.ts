import { beforeAll, expect, it } from 'vitest';
import type { RouteOutput } from '../../src/core/routes.js';
import type { Service } from '../../src/core/service.js';
import { describeEachEngine, failure, type EngineHarness } from '../support/engines.js';

const WORLD = { seed: 5, channels: 1200, terminated: 0 };
const DAY = 86_400_000;
const SIX_HOURS = 6 * 3_600_000;

const world = (harness: EngineHarness) => harness.engine.platform();
type Top = RouteOutput<'collabs.top'>;

async function everyRanked(user: Service, query: Record<string, unknown> = {}): Promise<Top['channels']> {
  const rows: Top['channels'] = [];
  for (let page = 1; page <= 50; page++) {
    const body = await user.call('collabs.top', { ...query, page, per_page: 100 });
    rows.push(...body.channels);
    if (rows.length >= body.total) break;
  }
  return rows;
}

describeEachEngine(
  'collabs',
  (get) => {
    let user: Service;
    beforeAll(() => {
      user = get().as('starter');
    });

    it('ranks channels that do collabs by growth, from figures computed for a 6-hour boundary of world time', async () => {
      const harness = get();
      const w = await world(harness);
      const top = await user.call('collabs.top', {});
      expect(top).toMatchObject({ success: true, metric: 'subs', period: 7, sort: 'gain', page: 1, per_page: 25 });
      const computedAt = Date.parse(top.computed_at);
      expect(computedAt % SIX_HOURS).toBe(0);
      expect(computedAt).toBeLessThanOrEqual(w.nowMs());
      expect(w.nowMs() - computedAt).toBeLessThan(SIX_HOURS);
      expect(top.growth_through).toBe(new Date(computedAt - DAY).toISOString().slice(0, 10));
      expect(top.total).toBeGreaterThan(25);
      expect(top.channels).toHaveLength(25);
      top.channels.forEach((row, index) => {
        expect(row.rank).toBe(index + 1);
        expect(row.partners).toBeGreaterThanOrEqual(1);
        expect(row.collab_videos).toBeGreaterThanOrEqual(1);
        if (index > 0) expect(row.growth).toBeLessThanOrEqual(top.channels[index - 1]!.growth);
      });
      // The figures are the world's: growth of subscribers over the 7 complete days through growth_through.
      const sample = top.channels[3]!;
      const end = Date.parse(`${top.growth_through}T00:00:00Z`) + DAY;
      const [then, now] = w.totalsAt(sample.channel_id, [end - 7 * DAY, end])!;
      expect(sample.growth).toBe(now!.subscribers - then!.subscribers);
      expect(sample.subscribers).toBe(now!.subscribers);
      expect(sample.growth_pct).toBe(Math.round(((now!.subscribers - then!.subscribers) / then!.subscribers) * 10_000) / 100);
    });

    it('computes growth every 6 hours of world time, not per request', async () => {
      const harness = get();
      const now = (await world(harness)).nowMs();
      const untilBoundary = SIX_HOURS - (now % SIX_HOURS);
      const before = await user.call('collabs.top', { per_page: 100 });
      if (untilBoundary > 60 * 60_000) {
        await harness.engine.advanceWorld(untilBoundary - 30 * 60_000);
        expect(await user.call('collabs.top', { per_page: 100 })).toEqual(before);
        await harness.engine.advanceWorld('1h');
      } else {
        await harness.engine.advanceWorld(untilBoundary + 60_000);
      }
      const after = await user.call('collabs.top', { per_page: 100 });
      expect(Date.parse(after.computed_at)).toBe(Date.parse(before.computed_at) + SIX_HOURS);
    });

    it('follows every query rule: metric, period, pct with its 1,000-subscriber floor, bounds, partners, activity, language', async () => {
      const views30 = await user.call('collabs.top', { metric: 'views', period: 30, per_page: 10 });
      expect(views30).toMatchObject({ metric: 'views', period: 30 });
      expect(views30.channels.length).toBeGreaterThan(1);
      for (let i = 1; i < views30.channels.length; i++) expect(views30.channels[i]!.growth).toBeLessThanOrEqual(views30.channels[i - 1]!.growth);
      expect((await user.call('collabs.top', { period: '30' as never })).period).toBe(30);

      const pct = await everyRanked(user, { sort: 'pct' });
      expect(pct.length).toBeGreaterThan(0);
      for (const row of pct) expect(row.subscribers).toBeGreaterThanOrEqual(1000);
      for (let i = 1; i < pct.length; i++) expect(row(pct, i).growth_pct!).toBeLessThanOrEqual(row(pct, i - 1).growth_pct!);
      const gain = await everyRanked(user);
      expect(gain.some((r) => r.subscribers < 1000)).toBe(true);
      const pctSmall = await everyRanked(user, { sort: 'pct', min_subscribers: 0 });
      expect(pctSmall.some((r) => r.subscribers < 1000)).toBe(true);

      const bounded = await everyRanked(user, { min_subscribers: 5000, max_subscribers: 200_000 });
      expect(bounded.length).toBeGreaterThan(0);
      for (const r of bounded) expect(r.subscribers >= 5000 && r.subscribers <= 200_000).toBe(true);
      const connected = await everyRanked(user, { min_partners: 3 });
      expect(connected.length).toBeGreaterThan(0);
      expect(connected.length).toBeLessThan(gain.length);
      for (const r of connected) expect(r.partners).toBeGreaterThanOrEqual(3);
      const top = await user.call('collabs.top', {});
      const active = await everyRanked(user, { active_days: 7 });
      const since = Date.parse(top.computed_at) - 7 * DAY;
      for (const r of active) expect(Date.parse(r.latest_collab_at!)).toBeGreaterThan(since);
      expect(active.length).toBeLessThan(gain.length);
      const spanish = await everyRanked(user, { language: 'spanish' });
      expect(spanish.length).toBeGreaterThan(0);
      for (const r of spanish) expect(r.language).toBe('Spanish');
      expect((await everyRanked(user, { language: 'es' })).length).toBe(spanish.length);
    });

    it('refuses out-of-range queries with 400 naming the parameter', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ metric: 'likes' }, /metric/],
        [{ period: 14 }, /period: must be 7 or 30/],
        [{ sort: 'fastest' }, /sort/],
        [{ page: 51 }, /page/],
        [{ per_page: 101 }, /per_page/],
        [{ min_partners: 0 }, /min_partners/],
        [{ active_days: 0 }, /active_days/],
        [{ language: 'Elvish' }, /language.*Elvish/],
      ];
      for (const [query, message] of cases) {
        const error = await failure(user.call('collabs.top', query as never));
        expect(error.status).toBe(400);
        expect(error.message).toMatch(message);
      }
    });

    it('shows one channel: partners with joint counts, videos newest first with host and collaborators, totals beyond the limit', async () => {
      const harness = get();
      const [busiest] = (await everyRanked(user, { min_partners: 3 })).sort((a, b) => b.collab_videos - a.collab_videos);
      const view = await user.call('collabs.channel', { channel_id: busiest!.channel_id, since_days: 365 });
      expect(view).toMatchObject({ success: true, channel_id: busiest!.channel_id, checked: true, total_partners: busiest!.partners });
      expect(view.total_videos).toBeGreaterThanOrEqual(busiest!.collab_videos);
      expect(view.partners.length).toBe(view.total_partners);
      expect(view.has_new_collab).toBe(true);
      const w = await world(harness);
      expect(view.videos.length).toBeGreaterThan(0);
      for (const video of view.videos) {
        const listed = [video.host.channel_id, ...video.collaborators.map((c) => c.channel_id)];
        expect(listed).toContain(busiest!.channel_id);
        const platform = w.videoById(video.video_id)!;
        expect(platform.channel_id).toBe(video.host.channel_id);
        expect(platform.collaborators.sort()).toEqual(video.collaborators.map((c) => c.channel_id).sort());
        expect(video.upcoming).toBe(platform.kind === 'upcoming');
      }
      for (let i = 1; i < view.videos.length; i++) expect(view.videos[i]!.published_at <= view.videos[i - 1]!.published_at).toBe(true);
      expect(view.partners.length).toBeGreaterThanOrEqual(3);
      for (const partner of view.partners) {
        const joint = view.videos.filter((video) => !video.upcoming && [video.host.channel_id, ...video.collaborators.map((c) => c.channel_id)].includes(partner.channel_id));
        expect(partner.joint_videos).toBe(joint.length);
        expect(partner.last_joint_at).toBe(joint[0]!.published_at);
      }
      const limited = await user.call('collabs.channel', { channel_id: busiest!.channel_id, limit: 1, since_days: 365 });
      expect(limited.partners).toHaveLength(1);
      expect(limited.videos).toHaveLength(1);
      expect(limited).toMatchObject({ total_partners: view.total_partners, total_videos: view.total_videos });
      expect(view.growth).toMatchObject({ subs_7d: busiest!.growth });
    });

    it('marks upcoming collabs, counts them, and says whether a collab is new within since_days', async () => {
      const harness = get();
      const w = await world(harness);
      const now = w.nowMs();
      let upcomingChannel: string | undefined;
      for (const channel of w.eachChannel()) {
        const listings = w.collabs.involving(channel.idx, now).filter((l) => l.known && l.published_ms > now);
        if (listings.length > 0) {
          upcomingChannel = channel.channel_id;
          break;
        }
      }
      expect(upcomingChannel).toBeDefined();
      const view = await user.call('collabs.channel', { channel_id: upcomingChannel! });
      expect(view.upcoming_collabs).toBeGreaterThan(0);
      const upcoming = view.videos.filter((video) => video.upcoming);
      expect(upcoming.length).toBe(view.upcoming_collabs);
      for (const video of upcoming) {
        expect(Date.parse(video.published_at)).toBeGreaterThan(now);
        expect(video).toMatchObject({ views: 0, kind: 'upcoming' });
      }
      // has_new_collab: a published collab within since_days.
      const published = view.videos.filter((video) => !video.upcoming);
      if (published.length > 0) {
        const ageDays = (now - Date.parse(published[0]!.published_at)) / DAY;
        const within = Math.min(365, Math.ceil(ageDays) + 1);
        expect((await user.call('collabs.channel', { channel_id: upcomingChannel!, since_days: within })).has_new_collab).toBe(true);
        if (ageDays > 1) expect((await user.call('collabs.channel', { channel_id: upcomingChannel!, since_days: Math.floor(ageDays) })).has_new_collab).toBe(false);
      }
    });

    it('says checked: false exactly when the channel was not scanned and no scanned channel lists it', async () => {
      const harness = get();
      const w = await world(harness);
      const now = w.nowMs();
      const checkedSet = new Set(w.collabs.checkedChannels(now));
      const channels = [...w.eachChannel()];
      const unchecked = channels.find((channel) => !channel.collab_scanned && !checkedSet.has(channel.idx))!;
      const listedOnly = channels.find((channel) => !channel.collab_scanned && checkedSet.has(channel.idx))!;
      const scanned = channels.find((channel) => channel.collab_scanned)!;
      const blank = await user.call('collabs.channel', { channel_id: unchecked.channel_id });
      expect(blank).toMatchObject({ checked: false, scanned: false, growth: null, total_partners: 0, total_videos: 0, partners: [], videos: [], upcoming_collabs: 0, has_new_collab: false });
      expect(await user.call('collabs.channel', { channel_id: listedOnly.channel_id })).toMatchObject({ checked: true, scanned: false });
      const scannedView = await user.call('collabs.channel', { channel_id: scanned.channel_id });
      expect(scannedView).toMatchObject({ checked: true, scanned: true });
      expect(scannedView.growth).toMatchObject({ subs_7d: expect.any(Number), subs_30d: expect.any(Number), views_7d: expect.any(Number), views_30d: expect.any(Number) });
      expect((await user.call('collabs.channel', { channel_id: 'UCAAAAAAAAAAAAAAAAAAAAAA' })).checked).toBe(false);
      for (const query of [{ since_days: 0 }, { since_days: 366 }, { limit: 0 }, { limit: 101 }]) {
        expect((await failure(user.call('collabs.channel', { channel_id: scanned.channel_id, ...query }))).status).toBe(400);
      }
      expect((await failure(user.call('collabs.channel', { channel_id: '@handle' }))).message).toMatch(/channel_id/);
    });

    it('feeds collab videos of checked channels: days, newest or most viewed first, channel_ids, paging', async () => {
      const harness = get();
      const w = await world(harness);
      const now = w.nowMs();
      const week = await user.call('collabs.feed', { per_page: 100 });
      expect(week).toMatchObject({ success: true, days: 7, sort: 'newest', page: 1, per_page: 100 });
      const month = await user.call('collabs.feed', { days: 30, per_page: 100 });
      expect(month.total).toBeGreaterThan(week.total);
      for (const video of month.videos) {
        expect(Date.parse(video.published_at)).toBeGreaterThan(now - 30 * DAY);
        expect(video.upcoming).toBe(false);
        const members = [video.host, ...video.collaborators].map((c) => w.channelById(c.channel_id)!);
        expect(members.some((channel) => channel.collab_scanned)).toBe(true);
      }
      for (let i = 1; i < month.videos.length; i++) expect(month.videos[i]!.published_at <= month.videos[i - 1]!.published_at).toBe(true);
      const byViews = await user.call('collabs.feed', { days: 30, sort: 'views', per_page: 100 });
      expect(byViews.total).toBe(month.total);
      for (let i = 1; i < byViews.videos.length; i++) expect(byViews.videos[i]!.views).toBeLessThanOrEqual(byViews.videos[i - 1]!.views);
      const page2 = await user.call('collabs.feed', { days: 30, per_page: 5, page: 2 });
      expect(page2.videos.map((v) => v.video_id)).toEqual(month.videos.slice(5, 10).map((v) => v.video_id));

      const someone = month.videos[0]!.collaborators[0]!.channel_id;
      const theirs = await user.call('collabs.feed', { days: 90, channel_ids: [someone] });
      expect(theirs.total).toBeGreaterThan(0);
      for (const video of theirs.videos) expect([video.host, ...video.collaborators].map((c) => c.channel_id)).toContain(someone);
      expect((await user.call('collabs.feed', { days: 90, channel_ids: `${someone},UCAAAAAAAAAAAAAAAAAAAAAA` as never })).total).toBe(theirs.total);

      const tooMany = Array.from({ length: 51 }, () => someone);
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ days: 91 }, /days/],
        [{ days: 0 }, /days/],
        [{ sort: 'oldest' }, /sort/],
        [{ page: 51 }, /page/],
        [{ per_page: 101 }, /per_page/],
        [{ channel_ids: tooMany }, /channel_ids: must list at most 50/],
        [{ channel_ids: ['@someone'] }, /channel_ids: "@someone" is not a channel id/],
      ];
      for (const [query, message] of cases) {
        const error = await failure(user.call('collabs.feed', query as never));
        expect(error.status).toBe(400);
        expect(error.message).toMatch(message);
      }
    });

    it('shows new collab videos as the world moves, upcoming ones publishing under the same id', async () => {
      const harness = get();
      const w = await world(harness);
      const now = w.nowMs();
      const upcoming = [...w.eachChannel()].flatMap((channel) => w.collabs.involving(channel.idx, now)).find((l) => l.known && l.published_ms > now)!;
      const before = await user.call('collabs.feed', { days: 1, per_page: 100 });
      await harness.engine.advanceWorld(upcoming.published_ms - now + 60_000);
      const after = await user.call('collabs.feed', { days: 90, per_page: 100 });
      expect(after.videos.map((v) => v.video_id)).toContain(upcoming.video_id);
      const published = after.videos.find((v) => v.video_id === upcoming.video_id)!;
      expect(published).toMatchObject({ upcoming: false, published_at: new Date(upcoming.published_ms).toISOString().replace('.000Z', 'Z') });
      const latest = await user.call('collabs.feed', { days: 1, per_page: 100 });
      expect(latest.videos.some((v) => Date.parse(v.published_at) > now)).toBe(true);
      expect(latest.videos.map((v) => v.video_id)).not.toEqual(before.videos.map((v) => v.video_id));
    });
  },
  { world: WORLD, postgres: true },
);

function row<T>(rows: T[], index: number): T {
  return rows[index]!;
}
