/**
 * The sample world's truth behind the channel checks: networks and the pre-checked index, ads on
 * watch pages over time, and external monetization.
 */
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { monetizedAt, adProfile } from '../../../src/engine/platform/sample/ad-pages.js';
import { SampleWorld, type WorldChannel } from '../../../src/engine/platform/sample/index.js';

const REF = '2026-11-21';
const DAY_MS = 86_400_000;

function allChannels(world: SampleWorld): WorldChannel[] {
  return Array.from({ length: world.channelCount() }, (_, index) => world.channelByIndex(index)!);
}

describe('sample world: networks and the pre-checked index', () => {
  let db: Database.Database;
  let world: SampleWorld;
  let channels: WorldChannel[];
  beforeAll(() => {
    db = new Database(':memory:');
    world = SampleWorld.ensure(db, { seed: 'networks', channels: 4000, referenceDate: REF });
    channels = allChannels(world);
  });

  it('manages about a fifth of longform channels and pre-checks about two thirds of them, and no others', () => {
    const longform = channels.filter((channel) => channel.content_type === 'longform');
    const managed = longform.filter((channel) => world.networks.ownerOf(channel.channel_id) !== null);
    const prechecked = new Map([...world.networks.prechecked()].map((verdict) => [verdict.channel_id, verdict]));
    expect(managed.length / longform.length).toBeGreaterThan(0.16);
    expect(managed.length / longform.length).toBeLessThan(0.24);
    const precheckedLongform = longform.filter((channel) => prechecked.has(channel.channel_id)).length;
    expect(precheckedLongform / longform.length).toBeGreaterThan(0.62);
    expect(precheckedLongform / longform.length).toBeLessThan(0.71);
    expect(prechecked.size).toBe(precheckedLongform);
    // Members are longform-heavy.
    const members = channels.filter((channel) => world.networks.ownerOf(channel.channel_id) !== null);
    expect(members.filter((channel) => channel.content_type === 'longform').length / members.length).toBeGreaterThan(0.6);
  });

  it('dates pre-checks in the past and keeps most of them in line with the truth', () => {
    const refEnd = Date.parse(`${REF}T00:00:00Z`) + DAY_MS;
    let agreeing = 0;
    let total = 0;
    for (const verdict of world.networks.prechecked()) {
      expect(verdict.checked_at).toBeLessThan(refEnd - DAY_MS);
      expect(verdict.checked_at).toBeGreaterThan(refEnd - 401 * DAY_MS);
      const truth = world.networks.ownerOf(verdict.channel_id);
      if ((truth?.oid ?? null) === (verdict.owner?.oid ?? null)) agreeing += 1;
      total += 1;
    }
    // About 5% are stale: the channel joined or left a network since.
    expect(agreeing / total).toBeGreaterThan(0.9);
    expect(agreeing).toBeLessThan(total);
  });

  it('gives networks stable 22-character oids, an industry and type, and sometimes no name', () => {
    const rows = db.prepare<[], { oid: string; name: string | null; type: string; industry: string; owner_email: string | null }>('SELECT * FROM world_networks').all();
    expect(rows.length).toBeGreaterThan(50);
    expect(new Set(rows.map((row) => row.oid)).size).toBe(rows.length);
    for (const row of rows) expect(row.oid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const unnamed = rows.filter((row) => row.name === null).length / rows.length;
    expect(unnamed).toBeGreaterThan(0.05);
    expect(unnamed).toBeLessThan(0.3);
    // Several networks share generic names: only the oid tells them apart.
    const byName = new Map<string, number>();
    for (const row of rows) if (row.name) byName.set(row.name, (byName.get(row.name) ?? 0) + 1);
    expect([...byName.values()].some((count) => count > 1)).toBe(true);
    expect(rows.some((row) => row.owner_email?.endsWith('.example'))).toBe(true);
  });

  it('never hands an owner e-mail out of the world reader', () => {
    const member = channels.find((channel) => world.networks.ownerOf(channel.channel_id))!;
    const owner = world.networks.ownerOf(member.channel_id)!;
    expect(Object.keys(owner).sort()).toEqual(['industry', 'name', 'oid', 'type']);
    expect(Object.keys(world.networks.network(owner.oid)!).sort()).toEqual(['industry', 'name', 'oid', 'type']);
    for (const verdict of world.networks.prechecked()) expect(JSON.stringify(verdict)).not.toMatch(/@[a-z0-9-]+\.example/);
  });

  it('is deterministic and a smaller world is the prefix of a bigger one', () => {
    const small = SampleWorld.ensure(new Database(':memory:'), { seed: 'networks', channels: 500, referenceDate: REF });
    for (const channel of channels.slice(0, 500)) {
      expect(small.networks.ownerOf(channel.channel_id)).toEqual(world.networks.ownerOf(channel.channel_id));
    }
    const smallPrechecks = [...small.networks.prechecked()];
    const bigPrechecks = [...world.networks.prechecked()].slice(0, smallPrechecks.length);
    expect(smallPrechecks).toEqual(bigPrechecks);
  });
});

describe('sample world: ads on watch pages', () => {
  let world: SampleWorld;
  let channels: WorldChannel[];
  beforeAll(() => {
    world = SampleWorld.ensure(new Database(':memory:'), { seed: 'ads', channels: 2000, referenceDate: REF });
    channels = allChannels(world);
  });
  const now = Date.parse(`${REF}T12:00:00Z`);

  it('reads at most the 5 newest published longform pages of a channel', () => {
    for (const channel of channels.slice(0, 200)) {
      // Its own pages: collabs another channel hosts are listed too, but their pages are the host's.
      const longs = world.channelVideos(channel, { kind: 'long' }).filter((video) => video.channel_id === channel.channel_id);
      const pages = world.readAdPages(channel, now);
      expect(pages.map((page) => page.video_id)).toEqual(longs.slice(0, 5).map((video) => video.video_id));
    }
    expect(world.readAdPages('UCAAAAAAAAAAAAAAAAAAAAAA', now)).toEqual([]);
  });

  it('never shows ads on channels under 1,000 subscribers, and shows them on most big ones', () => {
    const small = channels.filter((channel) => channel.subscribers < 1_000);
    for (const channel of small) expect(world.readAdPages(channel, now).some((page) => page.outcome === 'ads')).toBe(false);
    const big = channels.filter((channel) => channel.subscribers >= 1_000_000 && world.channelVideos(channel, { kind: 'long' }).length > 0);
    const withAds = big.filter((channel) => adProfile('ads', channel).monetized).length;
    expect(withAds / big.length).toBeGreaterThan(0.6);
  });

  it('blocks every read of some channels, and a few reads of most', () => {
    const readable = channels.filter((channel) => world.readAdPages(channel, now).length > 0);
    const allBlocked = readable.filter((channel) => world.readAdPages(channel, now).every((page) => page.outcome === 'blocked'));
    expect(allBlocked.length / readable.length).toBeGreaterThan(0.02);
    expect(allBlocked.length / readable.length).toBeLessThan(0.15);
  });

  it('flips the status of some channels over time, so checks at different times disagree', () => {
    const flipping = channels.filter((channel) => adProfile('ads', channel).flip !== null);
    expect(flipping.length / channels.length).toBeGreaterThan(0.04);
    const profile = adProfile('ads', flipping[0]!);
    const period = profile.flip!.period_ms;
    expect(monetizedAt(profile, now + period)).toBe(!monetizedAt(profile, now));
    expect(monetizedAt(profile, now + 2 * period)).toBe(monetizedAt(profile, now));
    const steady = channels.find((channel) => adProfile('ads', channel).flip === null)!;
    expect(monetizedAt(adProfile('ads', steady), now)).toBe(monetizedAt(adProfile('ads', steady), now + 90 * DAY_MS));
  });
});

describe('sample world: external monetization', () => {
  let world: SampleWorld;
  let channels: WorldChannel[];
  beforeAll(() => {
    world = SampleWorld.ensure(new Database(':memory:'), { seed: 'external', channels: 1500, referenceDate: REF });
    channels = allChannels(world);
  });

  it('has sellers with methods, evidence, source links, priced products, stores and a funnel, and channels selling nothing', () => {
    const profiles = channels.map((channel) => world.externalMonetization(channel)!);
    const sellers = profiles.filter((profile) => profile.methods.length > 0);
    expect(sellers.length / profiles.length).toBeGreaterThan(0.15);
    expect(sellers.length / profiles.length).toBeLessThan(0.6);
    expect(profiles.some((profile) => profile.methods.length === 0 && profile.funnel === null)).toBe(true);
    for (const profile of sellers) {
      for (const method of profile.methods) {
        expect(method.evidence.length).toBeGreaterThan(20);
        expect(method.source_url).toMatch(/^https:\/\/www\.youtube\.com\/(watch\?v=|shorts\/|@)/);
      }
      for (const product of profile.products) {
        expect(product.price).toBeGreaterThan(0);
        expect(product.currency).toMatch(/^[A-Z]{3}$/);
        expect(profile.store_urls.some((store) => product.url.startsWith(store))).toBe(true);
      }
      expect(profile.funnel!.est_click_through_rate).toBeGreaterThan(0);
    }
    expect(sellers.some((profile) => profile.products.length > 0 && profile.store_urls.length > 0)).toBe(true);
  });

  it('is a pure function of the world', () => {
    const channel = channels[42]!;
    expect(world.externalMonetization(channel)).toEqual(world.externalMonetization(channel.channel_id));
    expect(world.externalMonetization('UCAAAAAAAAAAAAAAAAAAAAAA')).toBeNull();
  });
});
