import { expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { describeEachEngine, failure, type EngineHarness } from '../support/engines.js';

const WORLD = { seed: 11, channels: 800, terminated: 0 };
const DAY = 86_400_000;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

const world = (harness: EngineHarness) => harness.engine.platform();

/** Every triggered row of a user (all pages), the whole history unless `history: false`. */
async function allTriggered(user: Service, query: { alert_id?: number; history?: boolean } = {}) {
  const rows = [];
  for (let page = 1; page <= 20; page++) {
    const body = await user.call('alerts.triggered', { history: true, ...query, page, per_page: 50 });
    rows.push(...body.channels);
    if (rows.length >= body.total) break;
  }
  return rows;
}
type TriggeredRow = Awaited<ReturnType<typeof allTriggered>>[number];

describeEachEngine(
  'alerts: records and rules',
  (get) => {
    it('creates an alert (201) with defaults and lists it', async () => {
      const user = get().as('starter');
      const created = await user.call('alerts.create', { name: 'Cooking', filters: { min_subs: 1000, languages: ['english', 'es'] } });
      expect(created.alert).toMatchObject({
        name: 'Cooking',
        alert_type: 'outlier',
        content_type: 'longform',
        enabled: true,
        filters: { min_subs: 1000, languages: ['English', 'Spanish'] },
        last_evaluated_at: null,
        last_world_time: null,
        new_channels: 0,
      });
      expect(created.alert.created_at).toMatch(ISO);
      const listed = await user.call('alerts.list', {});
      expect(listed).toMatchObject({ success: true, count: 1 });
      expect(listed.alerts[0]).toEqual(created.alert);
      const harness = get();
      if (harness.kind === 'remote') {
        const key = (await harness.engine.identity.createUserWithKey('starter', [])).key;
        const response = await fetch(`${harness.baseUrl}/api/alerts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Over HTTP', alert_type: 'new_channel', content_type: 'shorts', filters: { languages: 'English,Hindi' } }),
        });
        expect(response.status).toBe(201);
        expect((await response.json()).alert.filters).toEqual({ languages: ['English', 'Hindi'] });
      }
    });

    it('refuses an unknown filter name, a wrong type, an unknown language or category, and min above max with 400 naming it, saving nothing', async () => {
      const user = get().as('starter');
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ min_subscribers: 10 }, /filters: unknown filter min_subscribers; filters are min_subs/],
        [{ min_subs: 'many' }, /filters\.min_subs/],
        [{ min_subs: -1 }, /filters\.min_subs/],
        [{ languages: ['Klingon'] }, /filters\.languages.*Klingon/],
        [{ categories: ['Cooking'] }, /filters\.categories.*Cooking/],
        [{ min_subs: 5000, max_subs: 100 }, /filters\.min_subs.*max_subs/],
      ];
      for (const [filters, message] of cases) {
        const error = await failure(user.call('alerts.create', { name: 'Bad', filters: filters as never }));
        expect(error.status).toBe(400);
        expect(error.message).toMatch(message);
      }
      expect((await failure(user.call('alerts.create', { name: 'Bad', filters: 'min_subs=1' as never }))).message).toMatch(/filters/);
      expect((await failure(user.call('alerts.create', { name: 'Bad', alert_type: 'viral' as never }))).message).toMatch(/alert_type.*outlier, new_channel, breakout/);
      expect((await failure(user.call('alerts.create', { name: 'Bad', content_type: 'podcasts' as never }))).message).toMatch(/content_type/);
      for (const name of ['', '   ', 'x'.repeat(101)]) expect((await failure(user.call('alerts.create', { name }))).message).toMatch(/name/);
      expect((await user.call('alerts.list', {})).count).toBe(0);
    });

    it('takes type as another name for alert_type, and refuses any other unknown field with 400 naming it, saving nothing', async () => {
      const harness = get();
      const user = harness.as('starter');
      expect((await user.call('alerts.create', { name: 'Typed', type: 'breakout' })).alert.alert_type).toBe('breakout');
      expect((await user.call('alerts.create', { name: 'Both', type: 'new_channel', alert_type: 'new_channel' })).alert.alert_type).toBe('new_channel');
      const clash = await failure(user.call('alerts.create', { name: 'Clash', type: 'breakout', alert_type: 'outlier' }));
      expect(clash.status).toBe(400);
      expect(clash.message).toMatch(/type.*alert_type.*differ/);
      const unknown = await failure(user.call('alerts.create', { name: 'Typo', alert_typ: 'breakout', min_subs: 10 } as never));
      expect(unknown.status).toBe(400);
      expect(unknown.message).toMatch(/unknown fields alert_typ, min_subs; the body takes name, content_type, alert_type, type, filters/);
      const { alert } = await user.call('alerts.create', { name: 'Kept' });
      const update = await failure(user.call('alerts.update', { id: alert.id, enabled: false, alert_type: 'breakout' } as never));
      expect(update.message).toMatch(/unknown field alert_type; the body takes name, filters, enabled/);
      expect((await user.call('alerts.list', {})).alerts.map((row) => [row.name, row.alert_type, row.enabled])).toEqual([
        ['Typed', 'breakout', true],
        ['Both', 'new_channel', true],
        ['Kept', 'outlier', true],
      ]);
    });

    it('caps alerts per plan with 403: Starter 5, Professional 25, Ultimate 100', async () => {
      for (const [plan, cap] of [['starter', 5], ['professional', 25], ['ultimate', 100]] as const) {
        const user = get().as(plan);
        for (let i = 0; i < cap; i++) await user.call('alerts.create', { name: `Alert ${i}` });
        const error = await failure(user.call('alerts.create', { name: 'One too many' }));
        expect(error.status).toBe(403);
        expect(error.message).toMatch(new RegExp(`alert limit \\(${cap} on your plan\\)`));
        expect((await user.call('alerts.list', {})).count).toBe(cap);
      }
    });

    it('changes any subset of name, filters and enabled; refuses an empty change', async () => {
      const user = get().as('starter');
      const { alert } = await user.call('alerts.create', { name: 'Mine', filters: { min_subs: 10, keywords: ['piano'] } });
      const renamed = (await user.call('alerts.update', { id: alert.id, name: 'Renamed' })).alert;
      expect(renamed).toMatchObject({ name: 'Renamed', filters: { min_subs: 10, keywords: ['piano'] }, enabled: true });
      const refiltered = (await user.call('alerts.update', { id: alert.id, filters: { max_subs: 99 } })).alert;
      expect(refiltered).toMatchObject({ name: 'Renamed', filters: { max_subs: 99 } });
      const disabled = (await user.call('alerts.update', { id: alert.id, enabled: false })).alert;
      expect(disabled).toMatchObject({ name: 'Renamed', filters: { max_subs: 99 }, enabled: false });
      expect(Date.parse(disabled.updated_at)).toBeGreaterThan(Date.parse(alert.updated_at));
      expect((await failure(user.call('alerts.update', { id: alert.id }))).message).toMatch(/at least one of name, filters, enabled/);
      expect((await failure(user.call('alerts.update', { id: alert.id, filters: { max_views: 'lots' } as never }))).status).toBe(400);
      expect((await user.call('alerts.list', {})).alerts[0]).toMatchObject({ filters: { max_subs: 99 }, enabled: false });
    });

    it('keeps one user out of another user\'s alerts with 404', async () => {
      const owner = get().as('starter');
      const stranger = get().as('starter');
      const { alert } = await owner.call('alerts.create', { name: 'Private' });
      expect((await failure(stranger.call('alerts.update', { id: alert.id, name: 'Mine' }))).status).toBe(404);
      expect((await failure(stranger.call('alerts.delete', { id: alert.id }))).status).toBe(404);
      expect((await failure(stranger.call('alerts.triggered', { alert_id: alert.id }))).status).toBe(404);
      expect((await failure(owner.call('alerts.delete', { id: 999_999 }))).status).toBe(404);
      expect((await stranger.call('alerts.status', {})).alerts).toEqual([]);
      expect((await owner.call('alerts.list', {})).alerts[0]!.name).toBe('Private');
    });

    it('bounds the triggered feed: page 1–20, per_page 1–50, default 50', async () => {
      const user = get().as('starter');
      for (const query of [{ page: 0 }, { page: 21 }, { per_page: 0 }, { per_page: 51 }, { alert_id: 0 }]) {
        expect((await failure(user.call('alerts.triggered', query))).status).toBe(400);
      }
      expect(await user.call('alerts.triggered', {})).toEqual({ success: true, page: 1, per_page: 50, total: 0, channels: [] });
    });
  },
  { world: WORLD, postgres: true },
);

describeEachEngine(
  'alerts: evaluation cycles on a moving world',
  (get) => {
    it('triggers channels within a day or two of world time with no filters, each with the reason and figures', async () => {
      const harness = get();
      const user = harness.as('ultimate');
      const ids: Record<string, number> = {};
      for (const [type, content] of [['outlier', 'longform'], ['outlier', 'shorts'], ['new_channel', 'longform'], ['breakout', 'longform']] as const) {
        ids[`${type}/${content}`] = (await user.call('alerts.create', { name: `${type} ${content}`, alert_type: type, content_type: content })).alert.id;
      }
      const first = await harness.engine.advanceWorld('1d');
      expect(first.alerts.alerts_evaluated).toBeGreaterThanOrEqual(4);
      await harness.engine.advanceWorld('1d');
      const status = await user.call('alerts.status', {});
      expect(status.world_time).toMatch(ISO);
      for (const alert of status.alerts) {
        expect(alert.last_world_time).toBe(status.world_time);
        expect(alert.last_evaluated_at).toMatch(ISO);
      }
      const rows = await allTriggered(user);
      const w = await world(harness);
      const now = w.nowMs();
      const byType = (type: string) => rows.filter((row) => row.alert_type === type);
      for (const type of ['outlier', 'new_channel', 'breakout']) expect(byType(type).length, type).toBeGreaterThan(0);

      for (const row of byType('outlier')) {
        const figures = row.figures as { video_id: string; views: number; usual_views: number; multiple: number; published_at: string; video_kind: string };
        expect(figures.views).toBeGreaterThanOrEqual(1000);
        expect(figures.views).toBeGreaterThanOrEqual(5 * figures.usual_views);
        expect(figures.multiple).toBeGreaterThanOrEqual(5);
        const video = w.videoById(figures.video_id)!;
        expect(video.channel_id).toBe(row.channel_id);
        expect(Date.parse(figures.published_at)).toBeGreaterThan(now - 9 * DAY);
        expect(row.reason).toContain(video.title);
        const wanted = row.alerts[0]!.alert_id === ids['outlier/shorts'] ? 'short' : 'long';
        expect(figures.video_kind).toBe(wanted);
      }
      for (const row of byType('new_channel')) {
        const channel = w.channelById(row.channel_id)!;
        expect(channel.created_at > w.referenceDate).toBe(true);
        expect(row.figures).toMatchObject({ created_at: channel.created_at });
        expect(['longform', 'mixed']).toContain(channel.content_type);
      }
      for (const row of byType('breakout')) {
        const figures = row.figures as { views_24h: number; average_daily_views_28d: number; multiple: number };
        expect(figures.views_24h).toBeGreaterThanOrEqual(1000);
        expect(figures.views_24h).toBeGreaterThanOrEqual(4 * figures.average_daily_views_28d);
        expect(row.reason).toMatch(/views in the last 24 hours/);
      }
      for (const row of rows) {
        expect(row.world_time).toMatch(ISO);
        expect(row.triggered_at).toMatch(ISO);
        expect(row.alerts.length).toBe(1);
      }
    });

    it('does not count a channel as new again unless it triggers anew; a cycle on an unmoved world changes nothing', async () => {
      const harness = get();
      const user = harness.as('ultimate');
      const { alert } = await user.call('alerts.create', { name: 'Shorts outliers', content_type: 'shorts' });
      const first = await harness.engine.evaluateAlerts();
      expect(first.alerts_evaluated).toBe(1);
      const before = await allTriggered(user);
      const statusBefore = await user.call('alerts.status', {});
      expect(statusBefore.alerts[0]!.new_channels).toBe(new Set(before.map((row) => row.channel_id)).size);
      expect(before.every((row) => row.new)).toBe(true);

      // Nothing moved: nothing is due, nothing is new, what the last evaluation found stays reported.
      expect(await harness.engine.evaluateAlerts()).toMatchObject({ cycle_id: null, alerts_evaluated: 0 });
      expect(await user.call('alerts.status', {})).toEqual(statusBefore);

      // The world makes new Shorts outliers on most days, not every day: move a day at a time until
      // one appears; the rules hold on every day, with or without new outliers.
      const key = (row: TriggeredRow) => `${row.channel_id}/${(row.figures as { video_id: string }).video_id}`;
      const old = new Set(before.map(key));
      let after: TriggeredRow[] = [];
      let fresh: TriggeredRow[] = [];
      for (let day = 1; fresh.length === 0; day++) {
        expect(day, 'a new Shorts outlier within two weeks of world time').toBeLessThanOrEqual(14);
        await harness.engine.advanceWorld('1d');
        after = await allTriggered(user);
        const keys = after.map(key);
        expect(new Set(keys).size).toBe(keys.length);
        fresh = after.filter((row) => row.new);
        for (const row of fresh) expect(old.has(key(row))).toBe(false);
        expect(after.filter((row) => !row.new).length).toBe(before.length);
      }
      const status = await user.call('alerts.status', {});
      expect(status.alerts[0]).toMatchObject({ alert_id: alert.id, new_channels: new Set(fresh.map((row) => row.channel_id)).size });
      // The feed as the spec says: only the last evaluation cycle's channels, unless history is asked for.
      expect(fresh.length).toBeGreaterThan(0);
      expect(await allTriggered(user, { history: false })).toEqual(fresh);
      expect(await user.call('alerts.triggered', {})).toMatchObject({ total: fresh.length, channels: fresh.slice(0, 50) });
      expect((await user.call('alerts.triggered', { alert_id: alert.id })).total).toBe(fresh.length);
      expect((await user.call('alerts.triggered', { history: true })).total).toBe(after.length);
      expect(after.length).toBeGreaterThan(fresh.length);
    });

    it('applies the filters and skips disabled alerts; an edit makes an alert due again', async () => {
      const harness = get();
      const user = harness.as('ultimate');
      const english = (await user.call('alerts.create', { name: 'English shorts outliers', content_type: 'shorts', filters: { languages: ['English'], min_subs: 100 } })).alert;
      const impossible = (await user.call('alerts.create', { name: 'Too big', content_type: 'shorts', filters: { min_subs: 2_000_000_000 } })).alert;
      const off = (await user.call('alerts.create', { name: 'Off', content_type: 'shorts' })).alert;
      await user.call('alerts.update', { id: off.id, enabled: false });
      await harness.engine.advanceWorld('3d');
      const w = await world(harness);
      const englishRows = await allTriggered(user, { alert_id: english.id });
      expect(englishRows.length).toBeGreaterThan(0);
      for (const row of englishRows) {
        const channel = w.channelById(row.channel_id)!;
        expect(channel.language).toBe('English');
        expect(channel.subscribers).toBeGreaterThanOrEqual(100);
      }
      expect((await user.call('alerts.triggered', { alert_id: impossible.id })).total).toBe(0);
      const status = Object.fromEntries((await user.call('alerts.status', {})).alerts.map((alert) => [alert.alert_id, alert]));
      expect(status[off.id]).toMatchObject({ enabled: false, last_evaluated_at: null, new_channels: 0 });
      expect(status[impossible.id]!.last_world_time).toBe(status[english.id]!.last_world_time);

      // Loosening the filters at the same world time: evaluated again in the next cycle.
      await user.call('alerts.update', { id: impossible.id, filters: {} });
      const cycle = await harness.engine.evaluateAlerts();
      expect(cycle.alerts_evaluated).toBe(1);
      expect((await user.call('alerts.triggered', { alert_id: impossible.id })).total).toBeGreaterThan(0);
    });

    it('merges the feed over all alerts, newest first, each row naming the alerts it came from', async () => {
      const harness = get();
      const user = harness.as('ultimate');
      const a = (await user.call('alerts.create', { name: 'A', alert_type: 'new_channel' })).alert;
      const b = (await user.call('alerts.create', { name: 'B', alert_type: 'new_channel' })).alert;
      const c = (await user.call('alerts.create', { name: 'C', alert_type: 'outlier' })).alert;
      await harness.engine.advanceWorld('2d');
      const merged = await allTriggered(user);
      const newChannelRows = merged.filter((row) => row.alert_type === 'new_channel');
      expect(newChannelRows.length).toBeGreaterThan(0);
      for (const row of newChannelRows) expect(row.alerts).toEqual([{ alert_id: a.id, name: 'A' }, { alert_id: b.id, name: 'B' }]);
      for (const row of merged.filter((row) => row.alert_type === 'outlier')) expect(row.alerts).toEqual([{ alert_id: c.id, name: 'C' }]);
      expect(merged.length).toBe((await user.call('alerts.triggered', { history: true })).total);
      const one = await user.call('alerts.triggered', { alert_id: a.id, per_page: 2 });
      expect(one.channels.length).toBe(Math.min(2, one.total));
      for (const row of one.channels) expect(row.alerts).toEqual([{ alert_id: a.id, name: 'A' }]);

      // Later cycles come first.
      await harness.engine.advanceWorld('2d');
      const later = await allTriggered(user);
      const firstOld = later.findIndex((row) => !row.new);
      if (firstOld >= 0) expect(later.slice(firstOld).every((row) => !row.new)).toBe(true);
    });

    it('deletes an alert with its triggered history, keeping rows another alert shares', async () => {
      const harness = get();
      const user = harness.as('ultimate');
      const keep = (await user.call('alerts.create', { name: 'Keep', alert_type: 'new_channel' })).alert;
      const drop = (await user.call('alerts.create', { name: 'Drop', alert_type: 'new_channel' })).alert;
      const solo = (await user.call('alerts.create', { name: 'Solo', alert_type: 'breakout' })).alert;
      await harness.engine.advanceWorld('2d');
      const shared = (await user.call('alerts.triggered', { alert_id: drop.id })).total;
      expect(shared).toBeGreaterThan(0);
      const removed = await user.call('alerts.delete', { id: drop.id });
      expect(removed).toMatchObject({ success: true, id: drop.id, removed_triggers: shared });
      expect((await failure(user.call('alerts.triggered', { alert_id: drop.id }))).status).toBe(404);
      const remaining = await allTriggered(user);
      expect(remaining.every((row) => row.alerts.every((alert) => alert.alert_id !== drop.id))).toBe(true);
      expect(remaining.filter((row) => row.alert_type === 'new_channel').length).toBe(shared);

      const soloRows = (await user.call('alerts.triggered', { alert_id: solo.id })).total;
      await user.call('alerts.delete', { id: solo.id });
      expect((await user.call('alerts.triggered', {})).total).toBe(remaining.length - soloRows);
      expect((await user.call('alerts.list', {})).alerts.map((alert) => alert.id)).toEqual([keep.id]);
    });

    it('answers outlier-status from the alerts alone: per alert new channels and when it was evaluated', async () => {
      const harness = get();
      const user = harness.as('starter');
      const { alert } = await user.call('alerts.create', { name: 'Status', alert_type: 'new_channel' });
      const before = await user.call('alerts.status', {});
      expect(before).toMatchObject({ success: true, new_channels: 0, alerts: [{ alert_id: alert.id, name: 'Status', alert_type: 'new_channel', enabled: true, new_channels: 0, last_evaluated_at: null }] });
      await harness.engine.advanceWorld('2d');
      const after = await user.call('alerts.status', {});
      const triggered = await user.call('alerts.triggered', { alert_id: alert.id });
      expect(after.alerts[0]!.new_channels).toBe(triggered.total);
      expect(after.new_channels).toBe(triggered.total);
      expect(after.alerts[0]!.last_world_time).toBe(after.world_time);
    });
  },
  { world: WORLD, postgres: true },
);
