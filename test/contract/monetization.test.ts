/**
 * Ad-monetization checks (verdicts, previous, flips over engine time, unknowns) and the external
 * monetization profile (skip_live, cached_ok_secs, classifier version, the failing classifier) on
 * both engines.
 */
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { ManualClock } from '../../src/engine/clock.js';
import type { Engine } from '../../src/engine/engine.js';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { judgeAdPages } from '../../src/engine/features/checks/ad-check.js';
import { EXTERNAL_CLASSIFIER_VERSION } from '../../src/engine/features/checks/external-monetization.js';
import type { SampleWorld } from '../../src/engine/platform/sample/index.js';
import type { WorldChannel } from '../../src/engine/platform/sample/types.js';
import { checkFixtures, setCheckWork, type CheckFixtures } from '../support/check-fixtures.js';
import { describeEachEngine, failure } from '../support/engines.js';

const HOUR_MS = 3_600_000;
const clock = new ManualClock(Date.now());

function allChannels(world: SampleWorld): WorldChannel[] {
  return Array.from({ length: world.channelCount() }, (_, index) => world.channelByIndex(index)!);
}

/** The channels with a stored managed-network verdict (in the engine's store): the longform index's. */
const verdictIds = async (engine: Engine) => new Set((await engine.store.all<{ channel_id: string }>('SELECT channel_id FROM cms_verdicts')).map((row) => row.channel_id));

/** What a read at `at` supports (with the world at `worldAt`, now unless said), by the same judgement the engine makes. */
const verdictAt = (world: SampleWorld, channel: WorldChannel, at: number, worldAt = world.nowMs()) =>
  judgeAdPages(channel, true, world.readAdPages(channel.channel_id, at, worldAt)).monetized;

describeEachEngine(
  'ad-monetization check',
  (get) => {
    let fx: CheckFixtures;
    let user: Service;
    let world: SampleWorld;
    let indexed: WorldChannel[];
    const used = new Set<string>();
    /** A channel in the longform index that no test has checked yet. */
    const indexedWhere = (what: string, test: (channel: WorldChannel) => boolean): WorldChannel => {
      const found = indexed.find((channel) => !used.has(channel.channel_id) && test(channel));
      if (!found) throw new Error(`no indexed channel is ${what}`);
      used.add(found.channel_id);
      return found;
    };
    beforeAll(async () => {
      const engine = get().engine;
      world = await engine.platform();
      fx = await checkFixtures(engine);
      user = get().as('starter');
      // Reading the index starts it: pre-checked channels are in it.
      indexed = [];
      return user.call('cms.networks', {}).then(async () => {
        const ids = await verdictIds(engine);
        indexed = allChannels(world).filter((channel) => ids.has(channel.channel_id));
      });
    });
    beforeEach(async () => {
      await setCheckWork(get().engine, 0);
      await clearFault(get().engine.settings);
    });

    it('confirms ads on recent longform pages: true, a plain reason, no hint, previous null the first time', async () => {
      const channel = indexedWhere('monetized now', (c) => verdictAt(world, c, clock.now()) === true);
      const body = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(body).toEqual({
        success: true,
        channel_id: channel.channel_id,
        monetized: true,
        reason: expect.stringMatching(/^Ads found on \d of the \d newest longform videos read/),
        checked_at: new Date(clock.now()).toISOString(),
        previous: null,
      });
    });

    it('answers false when the pages read cleanly show no ads', async () => {
      const channel = indexedWhere('read cleanly without ads', (c) => verdictAt(world, c, clock.now()) === false);
      const body = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(body).toMatchObject({ monetized: false, previous: null });
      expect(body.reason).toMatch(/found no ads/);
      expect(body.hint).toBeUndefined();
    });

    it('stores every verdict and moves the last one into previous', async () => {
      const channel = indexedWhere('monetized now', (c) => verdictAt(world, c, clock.now()) === true);
      const first = await user.call('monetization.ads', { channel_id: channel.channel_id });
      clock.advance(60_000);
      const second = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(second.previous).toEqual({
        monetized: true,
        last_seen_monetized_at: first.checked_at,
        last_seen_demonetized_at: null,
        last_checked_at: first.checked_at,
      });
      expect(second.checked_at).not.toBe(first.checked_at);
    });

    it('shows a flip between two checks with the world moved on between them, not the engine clock', async () => {
      let later = 0;
      const channel = indexedWhere('flipping within three days of world time', (c) => {
        const now = verdictAt(world, c, clock.now());
        if (now === null) return false;
        for (let hours = 1; hours <= 72; hours += 1) {
          const then = verdictAt(world, c, clock.now(), world.nowMs() + hours * HOUR_MS);
          if (then !== null && then !== now) {
            later = hours;
            return true;
          }
        }
        return false;
      });
      const before = await user.call('monetization.ads', { channel_id: channel.channel_id });
      // The engine's clock alone (the wall clock) moves no channel's status.
      const wallOnly = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(wallOnly.monetized).toBe(before.monetized);
      world.advance(later * HOUR_MS);
      const after = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(after.monetized).toBe(!before.monetized);
      expect(after.previous!.monetized).toBe(before.monetized);
      const seen = before.monetized ? after.previous!.last_seen_monetized_at : after.previous!.last_seen_demonetized_at;
      expect(seen).toBe(wallOnly.checked_at);
    });

    it('flips each check of a channel with a known verdict under the ad-flip fault, and never one without', async () => {
      const engine = get().engine;
      const channel = indexedWhere('with a verdict now', (c) => verdictAt(world, c, clock.now()) !== null);
      await setFault(engine.settings, 'ad-flip');
      // Nothing known yet: nothing to flip from, so the platform's verdict.
      const first = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(first.monetized).toBe(verdictAt(world, channel, clock.now()));
      clock.advance(60_000);
      const second = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(second.monetized).toBe(!first.monetized);
      expect(second.previous!.monetized).toBe(first.monetized);
      clock.advance(60_000);
      const third = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(third.monetized).toBe(first.monetized);
      await clearFault(engine.settings, 'ad-flip');
      clock.advance(60_000);
      const cleared = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(cleared.monetized).toBe(verdictAt(world, channel, clock.now()));
    });

    it('answers null (unknown) with a hint when every page read is blocked, and stores it without losing what was seen', async () => {
      const engine = get().engine;
      const blocked = indexedWhere('blocking every read', (c) => {
        const pages = world.readAdPages(c.channel_id, clock.now());
        return pages.length > 0 && pages.every((page) => page.outcome === 'blocked');
      });
      const body = await user.call('monetization.ads', { channel_id: blocked.channel_id });
      expect(body).toMatchObject({ monetized: null, previous: null });
      expect(body.reason).toMatch(/all \d watch page reads were blocked/);
      expect(body.hint).toMatch(/check again/);

      const channel = indexedWhere('monetized now', (c) => verdictAt(world, c, clock.now()) === true);
      const seen = await user.call('monetization.ads', { channel_id: channel.channel_id });
      await setFault(engine.settings, 'ad-pages-blocked');
      const unknown = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(unknown).toMatchObject({ monetized: null, hint: expect.any(String) });
      await clearFault(engine.settings, 'ad-pages-blocked');
      const next = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(next.previous).toEqual({
        monetized: null,
        last_seen_monetized_at: seen.checked_at,
        last_seen_demonetized_at: null,
        last_checked_at: unknown.checked_at,
      });
    });

    it('answers null for a shorts channel and for a channel not yet in the longform index, which a CMS check adds', async () => {
      const shorts = await user.call('monetization.ads', { channel_id: fx.shorts.channel_id });
      expect(shorts).toMatchObject({ monetized: null, hint: expect.any(String) });
      expect(shorts.reason).toMatch(/publishes shorts/);

      const channel = fx.uncheckedNotManaged.find((c) => verdictAt(world, c, clock.now()) !== null && !used.has(c.channel_id))!;
      used.add(channel.channel_id);
      const outside = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(outside).toMatchObject({ monetized: null, previous: null });
      expect(outside.reason).toMatch(/not yet in the longform index/);
      expect(outside.hint).toContain(`tubekit cms ${channel.channel_id}`);
      expect(outside.hint).toContain(`GET /api/channel-cms/${channel.channel_id}`);
      await user.call('cms.check', { channel_id: channel.channel_id });
      const inside = await user.call('monetization.ads', { channel_id: channel.channel_id });
      expect(inside.monetized).toBe(verdictAt(world, channel, clock.now()));
      expect(inside.previous).toMatchObject({ monetized: null });
    });

    it('counts a channel a longform processing job saw as in the longform index', async () => {
      const engine = get().engine;
      const ids = await verdictIds(engine);
      const channel = allChannels(world).find(
        (c) => c.content_type === 'mixed' && c.subscribers > 5_000 && !ids.has(c.channel_id) && verdictAt(world, c, clock.now()) !== null,
      )!;
      expect((await user.call('monetization.ads', { channel_id: channel.channel_id })).monetized).toBeNull();
      const { job_id } = await user.call('channels.process', { channel: channel.channel_id, type: 'longform' });
      const done = await user.call('channels.processStatus', { job_id, wait_seconds: 20 });
      expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed' });
      expect((await user.call('monetization.ads', { channel_id: channel.channel_id })).monetized).toBe(verdictAt(world, channel, clock.now()));
    });

    it('chains concurrent checks: one finds no previous, the other the first one\'s verdict', async () => {
      await setCheckWork(get().engine, 100);
      const channel = indexedWhere('readable now', (c) => verdictAt(world, c, clock.now()) !== null);
      const bodies = await Promise.all([1, 2].map(() => user.call('monetization.ads', { channel_id: channel.channel_id })));
      expect(bodies.filter((body) => body.previous === null)).toHaveLength(1);
      expect(bodies.filter((body) => body.previous !== null)[0]!.previous!.monetized).toBe(bodies[0]!.monetized);
    });

    it('refuses malformed and unknown channel ids with 400', async () => {
      for (const channel_id of ['UC123', '@handle', 'https://www.youtube.com/@handle', 'UCAAAAAAAAAAAAAAAAAAAAAA']) {
        expect((await failure(user.call('monetization.ads', { channel_id }))).status, channel_id).toBe(400);
      }
    });
  },
  { world: { seed: 1, channels: 3000 }, clock, postgres: true },
);

describeEachEngine(
  'external monetization',
  (get) => {
    let user: Service;
    let seller: WorldChannel;
    let nonSeller: WorldChannel;
    let world: SampleWorld;
    beforeAll(async () => {
      world = await get().engine.platform();
      user = get().as('starter');
      const channels = allChannels(world);
      seller = channels.find((c) => (world.externalMonetization(c)?.products.length ?? 0) >= 2)!;
      nonSeller = channels.find((c) => world.externalMonetization(c)?.methods.length === 0)!;
    });
    beforeEach(async () => {
      await setCheckWork(get().engine, 0);
      await clearFault(get().engine.settings);
    });

    it('answers classified: false with skip_live while nothing is stored, without running the classifier', async () => {
      await setCheckWork(get().engine, 2_000);
      const started = Date.now();
      const body = await user.call('monetization.external', { channel_id: seller.channel_id, skip_live: true });
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(body).toEqual({
        success: true,
        channel_id: seller.channel_id,
        classified: false,
        checked_live: false,
        classifier_version: null,
        classified_at: null,
        summary: null,
        methods: [],
        products: [],
        store_urls: [],
        funnel: null,
      });
    });

    it('runs the classifier live by default and stores what the channel sells', async () => {
      await setCheckWork(get().engine, 150);
      const started = Date.now();
      const body = await user.call('monetization.external', { channel_id: seller.channel_id });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      const truth = world.externalMonetization(seller)!;
      expect(body).toMatchObject({
        classified: true,
        checked_live: true,
        classifier_version: EXTERNAL_CLASSIFIER_VERSION,
        classified_at: new Date(clock.now()).toISOString(),
        methods: truth.methods,
        products: truth.products,
        store_urls: truth.store_urls,
        funnel: truth.funnel,
      });
      expect(body.summary).toMatch(new RegExp(`^${seller.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} (sells|shows|earns)`));
      for (const method of body.methods) expect(method.source_url).toMatch(/^https:\/\//);
      const stored = await user.call('monetization.external', { channel_id: seller.channel_id, skip_live: '1' as never });
      expect(stored).toEqual({ ...body, checked_live: false });
    });

    it('says so when a channel sells nothing', async () => {
      const body = await user.call('monetization.external', { channel_id: nonSeller.channel_id });
      expect(body).toMatchObject({ classified: true, methods: [], products: [], store_urls: [], funnel: null });
      expect(body.summary).toMatch(/shows no external monetization/);
    });

    it('reuses a stored result under cached_ok_secs only while fresher and of the current classifier version', async () => {
      const engine = get().engine;
      const id = seller.channel_id;
      const stored = await user.call('monetization.external', { channel_id: id });
      clock.advance(30_000);
      const reused = await user.call('monetization.external', { channel_id: id, cached_ok_secs: 60 });
      expect(reused).toMatchObject({ checked_live: false, classified_at: stored.classified_at });
      const stale = await user.call('monetization.external', { channel_id: id, cached_ok_secs: 30 });
      expect(stale).toMatchObject({ checked_live: true, classified_at: new Date(clock.now()).toISOString() });
      await engine.store.run("UPDATE external_monetization SET classifier_version = 'sample-2020.01' WHERE channel_id = ?", [id]);
      const upgraded = await user.call('monetization.external', { channel_id: id, cached_ok_secs: 86_400 });
      expect(upgraded).toMatchObject({ checked_live: true, classifier_version: EXTERNAL_CLASSIFIER_VERSION });
      expect((await failure(user.call('monetization.external', { channel_id: id, cached_ok_secs: -1 }))).status).toBe(400);
    });

    it('answers 502 upstream_error when the classifier fails, and stores nothing', async () => {
      const engine = get().engine;
      const before = await user.call('monetization.external', { channel_id: seller.channel_id });
      clock.advance(5_000);
      await setFault(engine.settings, 'monetization-classifier-fail');
      const error = await failure(user.call('monetization.external', { channel_id: seller.channel_id }));
      expect(error).toMatchObject({ status: 502, code: 'upstream_error' });
      expect(error.message).toMatch(/classifier failed.*nothing was stored/);
      expect(await user.call('monetization.external', { channel_id: seller.channel_id, skip_live: true })).toEqual({ ...before, checked_live: false });
      expect((await user.call('monetization.external', { channel_id: seller.channel_id, cached_ok_secs: 60 })).checked_live).toBe(false);
      const fresh = allChannels(world).find((c) => c.channel_id !== seller.channel_id && c.channel_id !== nonSeller.channel_id)!;
      expect((await failure(user.call('monetization.external', { channel_id: fresh.channel_id }))).status).toBe(502);
      expect((await user.call('monetization.external', { channel_id: fresh.channel_id, skip_live: true })).classified).toBe(false);
    });

    it('takes only a 24-character UC… id: 400 otherwise, and 400 for an unknown one', async () => {
      for (const channel_id of ['@honestrunning', 'UC123', `${seller.channel_id}x`, 'https://www.youtube.com/channel/' + seller.channel_id]) {
        const error = await failure(user.call('monetization.external', { channel_id }));
        expect(error.status, channel_id).toBe(400);
        expect(error.message).toMatch(/24-character channel id starting with UC/);
      }
      const unknown = await failure(user.call('monetization.external', { channel_id: 'UCAAAAAAAAAAAAAAAAAAAAAA' }));
      expect(unknown.status).toBe(400);
      expect(unknown.message).toMatch(/no channel exists/);
    });
  },
  { world: { seed: 3, channels: 400 }, clock, postgres: true },
);
