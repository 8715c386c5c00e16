/**
 * Managed-network (CMS) checks and network browse on both engines: states, owners and networks per
 * plan, live checks, the hourly and daily caps, one live check for concurrent requests (also across
 * database connections, as separate processes have), and the no-verdict fault.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { ManualClock } from '../../src/engine/clock.js';
import type { Engine } from '../../src/engine/engine.js';
import { checkIndex } from '../../src/engine/features/checks/check-index.js';
import { openEngine } from '../../src/engine/open-engine.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { LocalService } from '../../src/engine/local-service.js';
import type { Plan } from '../../src/engine/limits/plans.js';
import { checkFixtures, countedEvents, setCheckWork, type CheckFixtures } from '../support/check-fixtures.js';
import { describeEachEngine, failure, type EngineHarness } from '../support/engines.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HOUR_MS = 3_600_000;
const clock = new ManualClock(Date.now());

interface User {
  id: number;
  key: string;
  service: Service;
}

async function newUser(harness: EngineHarness, plan: Plan): Promise<User> {
  const created = (await harness.engine.identity.createUserWithKey(plan, []));
  return { id: created.user_id, key: created.key, service: harness.withKey(created.key) };
}

const storedVerdict = (harness: EngineHarness, channelId: string) =>
  harness.engine.store.get<{ status: string; oid: string | null; source: string }>('SELECT * FROM cms_verdicts WHERE channel_id = ?', [channelId]);

describeEachEngine(
  'managed-network check',
  (get) => {
    let fx: CheckFixtures;
    let nextUnchecked = 0;
    /** A longform channel no test has checked yet (not pre-checked, not managed). */
    const freshChannel = () => fx.uncheckedNotManaged[nextUnchecked++]!.channel_id;
    beforeAll(async () => {
      fx = await checkFixtures(get().engine);
    });
    beforeEach(async () => {
      await setCheckWork(get().engine, 0);
      await clearFault(get().engine.settings);
    });

    it('answers a pre-checked managed channel at once: owner, the 5 biggest other members, checked_at in the past', async () => {
      const { service } = (await newUser(get(), 'professional'));
      const body = await service.call('cms.check', { channel_id: fx.managed.channel_id });
      expect(body).toMatchObject({ success: true, channel_id: fx.managed.channel_id, status: 'managed', checked_live: false });
      expect(body.checked_at).toMatch(ISO);
      expect(Date.parse(body.checked_at!)).toBeLessThan(clock.now() - 86_400_000);
      expect(body.owner).toEqual((await get().engine.platform()).networks.network(fx.bigOid));
      expect(body.hint).toBeUndefined();
      expect(body.note).toMatch(/pre-checked index/);
      const detail = await service.call('cms.networks', { oid: fx.bigOid });
      const roster = 'network' in detail ? detail.network.members : [];
      expect(body.network!.member_count).toBe(roster.length);
      expect(body.network!.members).toBeUndefined();
      const others = roster.filter((member) => member.channel_id !== fx.managed.channel_id).slice(0, 5);
      expect(body.network!.other_members_sample).toEqual(others.map(({ channel_id, name, subscribers, avg_views }) => ({ channel_id, name, subscribers, avg_views })));
      expect(others.length).toBe(5);
    });

    it('returns the whole roster, the channel included, with full_network=1 on Professional and Ultimate', async () => {
      for (const plan of ['professional', 'ultimate'] as const) {
        const body = await (await newUser(get(), plan)).service.call('cms.check', { channel_id: fx.managed.channel_id, full_network: true });
        expect(body.network!.other_members_sample).toBeUndefined();
        const members = body.network!.members!;
        expect(members).toHaveLength(body.network!.member_count);
        expect(members.map((member) => member.channel_id)).toContain(fx.managed.channel_id);
        expect(members.map((member) => member.subscribers)).toEqual([...members.map((member) => member.subscribers)].sort((a, b) => b - a));
        expect(Object.keys(members[0]!).sort()).toEqual(['avg_views', 'channel_id', 'name', 'subscribers']);
      }
    });

    it('never includes the network on Starter, and ignores full_network there', async () => {
      const { service } = (await newUser(get(), 'starter'));
      for (const full_network of [false, true]) {
        const body = await service.call('cms.check', { channel_id: fx.managed.channel_id, full_network });
        expect(body.status).toBe('managed');
        expect(body.owner!.oid).toBe(fx.bigOid);
        expect(body.network).toBeUndefined();
        expect(body.note).toMatch(/network details need Professional or Ultimate/);
      }
    });

    it('answers a pre-checked unmanaged channel with owner null and no network', async () => {
      const body = await (await newUser(get(), 'ultimate')).service.call('cms.check', { channel_id: fx.notManaged.channel_id, full_network: '1' as never });
      expect(body).toMatchObject({ status: 'not_managed', owner: null, checked_live: false });
      expect(body.network).toBeUndefined();
    });

    it('checks an unchecked channel live, stores the verdict, and answers later lookups from it', async () => {
      await setCheckWork(get().engine, 150);
      const { service } = (await newUser(get(), 'professional'));
      const channelId = fx.uncheckedManaged.channel_id;
      expect(await storedVerdict(get(), channelId)).toBeUndefined();
      const started = Date.now();
      const live = await service.call('cms.check', { channel_id: channelId });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(live).toMatchObject({ status: 'managed', checked_live: true, owner: { oid: fx.uncheckedManagedOid } });
      expect(live.checked_at).toBe(new Date(clock.now()).toISOString());
      expect(live.note).toMatch(/Live check just now/);
      expect(await storedVerdict(get(), channelId)).toMatchObject({ status: 'managed', oid: fx.uncheckedManagedOid, source: 'live' });
      // Verified now: it counts in its network.
      expect(live.network!.member_count).toBeGreaterThanOrEqual(1);
      const again = await service.call('cms.check', { channel_id: channelId });
      expect(again).toMatchObject({ status: 'managed', checked_live: false, checked_at: live.checked_at });
      expect(again.note).toMatch(/From a live check/);
    });

    it('runs a fresh live check with refresh=1, which can overturn a stale pre-checked verdict', async () => {
      const { service } = (await newUser(get(), 'professional'));
      const channelId = fx.staleNotManaged.channel_id;
      const stored = await service.call('cms.check', { channel_id: channelId });
      expect(stored).toMatchObject({ status: 'not_managed', checked_live: false });
      const truthOid = (await get().engine.platform()).networks.ownerOf(channelId)!.oid;
      const before = (await service.call('cms.networks', { oid: truthOid }).catch(() => null)) as { network: { member_count: number } } | null;
      const fresh = await service.call('cms.check', { channel_id: channelId, refresh: true });
      expect(fresh).toMatchObject({ status: 'managed', checked_live: true, owner: { oid: truthOid } });
      expect(fresh.network!.member_count).toBe((before?.network.member_count ?? 0) + 1);
    });

    it('refuses malformed ids and unknown channels with 400, counting nothing', async () => {
      const user = (await newUser(get(), 'starter'));
      for (const channel_id of ['', 'UC123', '@handle', 'UCAAAAAAAAAAAAAAAAAAAAA!']) {
        const error = await failure(user.service.call('cms.check', { channel_id }));
        expect(error.status, channel_id).toBe(400);
        expect(error.message).toMatch(/channel_id/);
      }
      const unknown = await failure(user.service.call('cms.check', { channel_id: 'UCAAAAAAAAAAAAAAAAAAAAAA' }));
      expect(unknown).toMatchObject({ status: 400, code: 'invalid_request' });
      expect(unknown.message).toMatch(/no channel exists with id UCAAAAAAAAAAAAAAAAAAAAAA/);
      expect((await countedEvents(get().engine, user.id, 'cms-lookup')) + (await countedEvents(get().engine, user.id, 'cms-live'))).toBe(0);
    });

    it('caps live checks per hour: Starter 5, Professional 20, Ultimate 60 (429 rate_limited, Retry-After); refusals count nothing', async () => {
      for (const [plan, cap] of [['starter', 5], ['professional', 20], ['ultimate', 60]] as const) {
        const user = (await newUser(get(), plan));
        const channel_id = freshChannel();
        for (let index = 0; index < cap; index += 1) {
          expect((await user.service.call('cms.check', { channel_id, refresh: true })).checked_live).toBe(true);
        }
        for (let attempt = 0; attempt < 2; attempt += 1) {
          const error = await failure(user.service.call('cms.check', { channel_id, refresh: true }));
          expect(error).toMatchObject({ status: 429, code: 'rate_limited' });
          expect(error.message).toMatch(new RegExp(`${cap} managed-network live checks an hour\\. Try again in \\d+s\\.`));
          expect(error.retryAfterSeconds).toBeGreaterThan(3500);
          expect(error.retryAfterSeconds).toBeLessThanOrEqual(3600);
        }
        // An unchecked channel needs a live check too; a stored verdict is still answered.
        expect((await failure(user.service.call('cms.check', { channel_id: freshChannel() }))).status).toBe(429);
        expect((await user.service.call('cms.check', { channel_id })).checked_live).toBe(false);
        expect(await countedEvents(get().engine, user.id, 'cms-live')).toBe(cap);
      }
    });

    it('frees live checks as the hour slides on', async () => {
      const user = (await newUser(get(), 'starter'));
      const channel_id = freshChannel();
      for (let index = 0; index < 5; index += 1) {
        await user.service.call('cms.check', { channel_id, refresh: true });
        clock.advance(10 * 60_000);
      }
      const error = await failure(user.service.call('cms.check', { channel_id, refresh: true }));
      expect(error.retryAfterSeconds).toBe(600);
      clock.advance(10 * 60_000);
      expect((await user.service.call('cms.check', { channel_id, refresh: true })).checked_live).toBe(true);
    });

    it('caps Starter at 50 lookups a day (429 upgrade_required); live checks and other plans are not held by it', async () => {
      const starter = (await newUser(get(), 'starter'));
      for (let index = 0; index < 49; index += 1) await starter.service.call('cms.check', { channel_id: fx.notManaged.channel_id });
      // A network list is a lookup too; a live check is not.
      await starter.service.call('cms.networks', {});
      await starter.service.call('cms.check', { channel_id: freshChannel() });
      const error = await failure(starter.service.call('cms.check', { channel_id: fx.managed.channel_id }));
      expect(error).toMatchObject({ status: 429, code: 'upgrade_required' });
      expect(error.message).toMatch(/Starter plan includes 50 managed-network lookups a day\. Try again in \d+s\./);
      expect(error.retryAfterSeconds).toBeGreaterThan(86_000);
      expect((await failure(starter.service.call('cms.networks', {}))).code).toBe('upgrade_required');
      expect((await starter.service.call('cms.check', { channel_id: freshChannel() })).checked_live).toBe(true);
      expect(await countedEvents(get().engine, starter.id, 'cms-lookup')).toBe(50);

      const professional = (await newUser(get(), 'professional'));
      for (let index = 0; index < 60; index += 1) await professional.service.call('cms.check', { channel_id: fx.notManaged.channel_id });
      expect(await countedEvents(get().engine, professional.id, 'cms-lookup')).toBe(0);
    });

    it('runs one live check for concurrent requests of an unchecked channel, and all of them get its verdict', async () => {
      await setCheckWork(get().engine, 400);
      const users = [(await newUser(get(), 'professional')), (await newUser(get(), 'starter')), (await newUser(get(), 'ultimate'))];
      const channel_id = fx.uncheckedNotManaged.at(-1)!.channel_id;
      const bodies = await Promise.all(users.map(async (user, index) => {
        await sleep(index * 40);
        return user.service.call('cms.check', { channel_id });
      }));
      expect(bodies.map((body) => body.checked_live)).toEqual([true, false, false]);
      for (const body of bodies) expect(body).toMatchObject({ status: 'not_managed', checked_at: bodies[0]!.checked_at });
      expect(bodies[1]!.note).toMatch(/live check another request was already running/);
      expect(await Promise.all(users.map((user) => countedEvents(get().engine, user.id, 'cms-live')))).toEqual([1, 0, 0]);
      // Joining counts as a lookup (Starter's daily cap), not as a live check.
      expect(await countedEvents(get().engine, users[1]!.id, 'cms-lookup')).toBe(1);
    });

    it('answers unchecked with a hint when the live check gets no verdict, storing nothing', async () => {
      await setFault(get().engine.settings, 'cms-no-verdict');
      const { service } = (await newUser(get(), 'professional'));
      const channel_id = freshChannel();
      const body = await service.call('cms.check', { channel_id });
      expect(body).toEqual({
        success: true,
        channel_id,
        status: 'unchecked',
        checked_at: null,
        checked_live: true,
        owner: null,
        note: expect.stringMatching(/got no verdict/),
        hint: expect.stringMatching(/Retry.*refresh=1/),
      });
      expect(await storedVerdict(get(), channel_id)).toBeUndefined();
      // A stored verdict survives a refresh that gets none.
      const stored = await service.call('cms.check', { channel_id: fx.notManaged.channel_id, refresh: true });
      expect(stored).toMatchObject({ status: 'not_managed', checked_live: true });
      expect(stored.note).toMatch(/got no verdict; this is the stored one/);
      await clearFault(get().engine.settings, 'cms-no-verdict');
      expect(await service.call('cms.check', { channel_id })).toMatchObject({ status: 'not_managed', checked_live: true });
    });

    it('refuses plan none with 403 on every check endpoint', async () => {
      const { service } = (await newUser(get(), 'none'));
      const id = fx.managed.channel_id;
      // Each call made when awaited: a refusal made earlier would reject before anyone listens.
      for (const call of [
        () => service.call('cms.check', { channel_id: id }),
        () => service.call('cms.networks', {}),
        () => service.call('monetization.ads', { channel_id: id }),
        () => service.call('monetization.external', { channel_id: id }),
      ]) {
        expect(await failure(call())).toMatchObject({ status: 403, code: 'plan_required' });
      }
    });

    it('never answers an owner e-mail', async () => {
      const { service } = (await newUser(get(), 'ultimate'));
      const bodies = [
        await service.call('cms.check', { channel_id: fx.managed.channel_id, full_network: true }),
        await service.call('cms.networks', { min_channels: 1, limit: 100 }),
        await service.call('cms.networks', { oid: fx.bigOid }),
      ];
      const text = JSON.stringify(bodies);
      expect(fx.ownerEmails.length).toBeGreaterThan(10);
      for (const email of fx.ownerEmails) expect(text).not.toContain(email);
      expect(text).not.toMatch(/@[a-z0-9-]+\.example/);
    });
  },
  { world: { seed: 1, channels: 3000 }, clock, postgres: true },
);

describeEachEngine(
  'network browse',
  (get) => {
    let fx: CheckFixtures;
    let pro: Service;
    beforeAll(async () => {
      fx = await checkFixtures(get().engine);
      pro = get().as('professional');
    });
    const list = async (input: Record<string, unknown>) => {
      const body = await pro.call('cms.networks', input as never);
      if (!('networks' in body)) throw new Error('expected list mode');
      return body;
    };

    it('lists networks with at least 2 known channels, most members first, 25 by default', async () => {
      const body = await list({});
      expect(body.count).toBe(body.networks.length);
      expect(body.count).toBeLessThanOrEqual(25);
      expect(body.networks.every((network) => network.member_count >= 2)).toBe(true);
      const counts = body.networks.map((network) => network.member_count);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      expect(Object.keys(body.networks[0]!).sort()).toEqual(['industry', 'member_count', 'name', 'oid', 'total_subscribers', 'type']);
      const singles = await list({ min_channels: 1, limit: 100 });
      expect(singles.networks.some((network) => network.member_count === 1)).toBe(true);
    });

    it('counts only channels verified as managed by the owner, and grows when a live check verifies one', async () => {
      const engine = get().engine;
      const verified = (await engine.store.get<{ n: number; subs: number }>(
        "SELECT COUNT(*) AS n, CAST(SUM(subscribers) AS BIGINT) AS subs FROM cms_verdicts WHERE status = 'managed' AND oid = ?",
        [fx.bigOid],
      ))!;
      const entry = (await list({ limit: 100, min_channels: 1 })).networks.find((network) => network.oid === fx.bigOid)!;
      expect(entry).toMatchObject({ member_count: verified.n, total_subscribers: verified.subs });
      const world = await engine.platform();
      const truthMembers = Array.from({ length: world.channelCount() }, (_, index) => world.channelByIndex(index)!)
        .filter((channel) => world.networks.ownerOf(channel.channel_id)?.oid === fx.uncheckedManagedOid);
      const before = (await list({ limit: 100, min_channels: 1 })).networks.find((network) => network.oid === fx.uncheckedManagedOid);
      expect(before?.member_count ?? 0).toBeLessThan(truthMembers.length);
      await setCheckWork(engine, 0);
      await pro.call('cms.check', { channel_id: fx.uncheckedManaged.channel_id });
      const after = (await list({ limit: 100, min_channels: 1 })).networks.find((network) => network.oid === fx.uncheckedManagedOid)!;
      expect(after.member_count).toBe((before?.member_count ?? 0) + 1);
    });

    it('sorts by combined subscribers, limits to 1..100, and filters by a case-insensitive name substring', async () => {
      const bySubs = await list({ sort: 'subscribers', min_channels: 1, limit: 100 });
      const totals = bySubs.networks.map((network) => network.total_subscribers);
      expect(totals).toEqual([...totals].sort((a, b) => b - a));
      expect((await list({ limit: 3 })).count).toBe(3);
      const named = bySubs.networks.find((network) => network.name && /\s/.test(network.name))!;
      const word = named.name!.split(' ')[1]!;
      const found = await list({ q: word.toUpperCase(), min_channels: 1, limit: 100 });
      expect(found.networks.map((network) => network.oid)).toContain(named.oid);
      expect(found.networks.every((network) => network.name!.toLowerCase().includes(word.toLowerCase()))).toBe(true);
      expect((await list({ q: '%', min_channels: 1 })).count).toBe(0);
      for (const input of [{ limit: 101 }, { limit: 0 }, { sort: 'views' }, { min_channels: 0 }]) {
        expect((await failure(pro.call('cms.networks', input as never))).status, JSON.stringify(input)).toBe(400);
      }
    });

    it('groups by oid: networks sharing a name stay apart', async () => {
      const all = await list({ min_channels: 1, limit: 100 });
      const byName = new Map<string, string[]>();
      for (const network of all.networks) if (network.name) byName.set(network.name, [...(byName.get(network.name) ?? []), network.oid]);
      const shared = [...byName.entries()].find(([, oids]) => oids.length > 1);
      expect(shared, 'a name shared by two networks').toBeDefined();
      const [name, oids] = shared!;
      const found = await list({ q: name, min_channels: 1, limit: 100 });
      expect(found.networks.filter((network) => network.name === name).map((network) => network.oid).sort()).toEqual([...oids].sort());
    });

    it('details one network by oid: up to 100 members, biggest first, with language and category', async () => {
      const body = await pro.call('cms.networks', { oid: fx.bigOid });
      if (!('network' in body)) throw new Error('expected detail mode');
      expect(body.network).toMatchObject({ oid: fx.bigOid, member_count: body.network.members.length });
      expect(Object.keys(body.network.members[0]!).sort()).toEqual(['avg_views', 'category', 'channel_id', 'language', 'name', 'subscribers']);
      // A network of 130 verified channels shows its 100 biggest.
      const engine = get().engine;
      await engine.store.run("INSERT INTO cms_owners (oid, name, type, industry) VALUES ('test-oid-big', 'Test Giant', 'Multi-channel network', 'Gaming')");
      for (let index = 0; index < 130; index += 1) {
        await engine.store.run("INSERT INTO cms_verdicts VALUES (?, 'managed', 'test-oid-big', ?, 'live', ?, ?, 10, 'English', 'Gaming')", [
          `UCtest${String(index).padStart(18, '0')}`,
          clock.now(),
          `Test ${index}`,
          1000 + index,
        ]);
      }
      const giant = await pro.call('cms.networks', { oid: 'test-oid-big' });
      if (!('network' in giant)) throw new Error('expected detail mode');
      expect(giant.network.member_count).toBe(130);
      expect(giant.network.members).toHaveLength(100);
      expect(giant.network.members[0]!.subscribers).toBe(1129);
      expect(giant.network.members[99]!.subscribers).toBe(1030);
    });

    it('answers 404 for an oid with no verified channel', async () => {
      const error = await failure(pro.call('cms.networks', { oid: 'no-such-network' }));
      expect(error).toMatchObject({ status: 404, code: 'not_found' });
      expect(error.message).toMatch(/No managed network with oid no-such-network/);
    });

    it('gives Starter the list (a lookup) but not a network\'s members (403 upgrade_required)', async () => {
      const starter = get().as('starter');
      expect((await starter.call('cms.networks', {})).success).toBe(true);
      const error = await failure(starter.call('cms.networks', { oid: fx.bigOid }));
      expect(error).toMatchObject({ status: 403, code: 'upgrade_required' });
      expect(error.message).toMatch(/Professional or Ultimate/);
    });
  },
  { world: { seed: 1, channels: 3000 }, clock, postgres: true },
);

describeEachEngine(
  'managed-network check across connections',
  (get, variant) => {
    let fx: CheckFixtures;
    let other: Engine;
    beforeAll(async () => {
      fx = await checkFixtures(get().engine);
      // A second connection to the same data dir and store, as another CLI process (or, on PostgreSQL, another server) would open.
      const storeUrl = get().engine.storeUrl;
      other = await openEngine({ dataDir: get().engine.dataDir, clock, jobRunner: { mode: 'none' }, store: storeUrl ? parseStoreLocation(storeUrl) : undefined });
      // Both have their pre-checked verdicts in place: the races below start at the decision.
      for (const engine of [get().engine, other]) await checkIndex(engine);
      return () => other.close();
    });

    it.runIf(variant.kind === 'embedded')('shares one live check with a request on another connection', async () => {
      await setCheckWork(get().engine, 400);
      const a = (await newUser(get(), 'professional'));
      const b = (await get().engine.identity.createUserWithKey('professional', []));
      const elsewhere = new LocalService(other, b.key);
      const channel_id = fx.uncheckedNotManaged[0]!.channel_id;
      const [first, second] = await Promise.all([
        a.service.call('cms.check', { channel_id }),
        sleep(60).then(() => elsewhere.call('cms.check', { channel_id })),
      ]);
      expect([first.checked_live, second.checked_live]).toEqual([true, false]);
      expect(second.checked_at).toBe(first.checked_at);
      expect(await countedEvents(get().engine, b.user_id, 'cms-live')).toBe(0);
    });

    it.runIf(variant.kind === 'embedded')('counts the hourly cap across connections', async () => {
      await setCheckWork(get().engine, 0);
      const created = (await get().engine.identity.createUserWithKey('starter', []));
      const here = new LocalService(get().engine, created.key);
      const there = new LocalService(other, created.key);
      const channel_id = fx.notManaged.channel_id;
      for (let index = 0; index < 5; index += 1) await (index % 2 ? there : here).call('cms.check', { channel_id, refresh: true });
      expect((await failure(there.call('cms.check', { channel_id, refresh: true }))).code).toBe('rate_limited');
      expect((await failure(here.call('cms.check', { channel_id, refresh: true }))).code).toBe('rate_limited');
    });

    it.runIf(variant.kind === 'embedded')('lets a waiting request run the check itself when the one it joined is abandoned', async () => {
      await setCheckWork(get().engine, 500);
      const runner = (await newUser(get(), 'ultimate'));
      const waiter = (await newUser(get(), 'ultimate'));
      const channel_id = fx.uncheckedNotManaged[1]!.channel_id;
      const abandon = new AbortController();
      const first = runner.service.call('cms.check', { channel_id }, { signal: abandon.signal });
      await sleep(50);
      const second = waiter.service.call('cms.check', { channel_id });
      await sleep(50);
      abandon.abort();
      await expect(first).rejects.toThrow();
      const body = await second;
      expect(body).toMatchObject({ status: 'not_managed', checked_live: true });
      expect(await countedEvents(get().engine, waiter.id, 'cms-live')).toBe(1);
    });

    it('takes over a claim whose runner died (lease run out)', async () => {
      await setCheckWork(get().engine, 0);
      const channel_id = fx.uncheckedNotManaged[2]!.channel_id;
      await get().engine.store.run("INSERT INTO cms_live_checks VALUES (?, 'dead-runner', ?, ?, NULL, NULL)", [channel_id, clock.now() - 2 * HOUR_MS, clock.now() - HOUR_MS]);
      const body = await (await newUser(get(), 'ultimate')).service.call('cms.check', { channel_id });
      expect(body).toMatchObject({ status: 'not_managed', checked_live: true });
    });
  },
  { world: { seed: 1, channels: 3000 }, clock, postgres: true },
);
