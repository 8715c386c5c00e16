/**
 * The external-monetization classifier on a live data dir, on both engines: methods from the
 * channel's links, description and newest video descriptions, each with its evidence and source;
 * products and prices read from the stores it links to (through the origin override, the host kept
 * as `/external/<host>/…`); the funnel; the classifier version and the cache rules.
 */
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { LIVE_EXTERNAL_CLASSIFIER_VERSION } from '../../src/engine/features/checks/external/live-classifier.js';
import { failure } from '../support/engines.js';
import { siteExchanges, type SiteChannel } from '../support/live-check-site.js';
import { describeEachEngineOnLive } from '../support/live-engines.js';
import type { FixtureExchange } from '../support/platform-fixture-server.js';

const SELLER = 'UCliveExtCozyKitchen0001';
const QUIET = 'UCliveExtQuietChannel001';

const CHANNELS: SiteChannel[] = [
  {
    id: SELLER,
    title: 'Cozy Kitchen',
    handle: '@cozykitchen',
    description: 'Weeknight dinners, slowly.\nNewsletter: https://cozykitchen.substack.com',
    links: [
      { title: 'Merch', url: 'https://shop.cozykitchen.example/' },
      { title: 'Courses', url: 'https://learn.cozykitchen.example/courses' },
      { title: 'Patreon', url: 'https://www.patreon.com/cozykitchen' },
      { title: 'Instagram', url: 'https://instagram.com/cozykitchen' },
      { title: 'All my links', url: 'https://linktr.ee/cozykitchen' },
    ],
    videos: [
      {
        id: 'extVideo001',
        title: 'Knife skills',
        ago: '1 day ago',
        paidPromotion: true,
        description: "Today's knife: https://amzn.to/3xAmPle\nAs an Amazon Associate I earn from qualifying purchases.\nThis video is sponsored by Example VPN. Use code COZY for 20% off.",
      },
      { id: 'extVideo002', title: 'Dumplings', ago: '3 days ago', description: 'Merch: https://shop.cozykitchen.example/\nGear I use: https://www.amazon.com/dp/B000EXAMPLE?tag=cozykitchen-20' },
      { id: 'extVideo003', title: 'Bread', ago: '5 days ago', description: 'Book a 1:1 cooking session: https://calendly.com/cozykitchen/session' },
      { id: 'extVideo004', title: 'Live cook-along', ago: '1 week ago', description: 'Tickets for the live cook-along on sale now:\nhttps://www.eventbrite.com/e/cozy-cook-along-123' },
      { id: 'extVideo005', title: 'Soup', ago: '2 weeks ago', description: 'Just dinner.' },
      { id: 'extVideo006', title: 'Stew', ago: '3 weeks ago', description: 'More dinner. https://instagram.com/cozykitchen' },
      { id: 'extVideo007', title: 'Too old', ago: '2 months ago', description: 'Old merch: https://old-store.example/' },
    ],
  },
  {
    id: QUIET,
    title: 'Quiet Channel',
    handle: '@quietchannel',
    description: 'Just videos.',
    links: [{ title: 'Twitter', url: 'https://twitter.com/quiet' }],
    videos: [{ id: 'qetVideo001', title: 'Quiet', ago: '1 day ago', description: 'Nothing to sell.' }],
  },
];

const outside = (path: string, file: string): FixtureExchange => ({ method: 'GET', path: `/external/${path}`, key: {}, file });
const STORES: FixtureExchange[] = [
  outside('shop.cozykitchen.example/', 'store-shopify.html'),
  outside('shop.cozykitchen.example/products.json', 'store-products.json'),
  outside('learn.cozykitchen.example/courses', 'store-jsonld.html'),
  { method: 'GET', path: '/external/www.patreon.com/cozykitchen', key: {}, body: '<!doctype html><title>Cozy Kitchen | Patreon</title><p>Become a patron</p>' },
];

describeEachEngineOnLive(
  'external monetization',
  () => [...siteExchanges(CHANNELS), ...STORES],
  (get) => {
    let user: Service;
    beforeAll(() => {
      user = get().as('starter');
    });
    beforeEach(() => clearFault(get().engine.settings));
    const playerReads = () => get().server.seen.filter((request) => request.path === '/youtubei/v1/player').length;

    it('classifies what the pages show: methods with evidence and source, products, stores and the funnel', async () => {
      const body = await user.call('monetization.external', { channel_id: SELLER });
      expect(body).toMatchObject({ success: true, channel_id: SELLER, classified: true, checked_live: true, classifier_version: LIVE_EXTERNAL_CLASSIFIER_VERSION });
      expect(body.methods.map((entry) => entry.method)).toEqual(['merch', 'course', 'membership', 'affiliate', 'sponsorships', 'coaching', 'tickets']);
      const method = (name: string) => body.methods.find((entry) => entry.method === name)!;
      expect(method('merch')).toEqual({
        method: 'merch',
        evidence: 'The about page links to a merch store (shop.cozykitchen.example). 1 of the 6 newest video descriptions links to a merch store (shop.cozykitchen.example).',
        source_url: `https://www.youtube.com/channel/${SELLER}/about`,
      });
      expect(method('affiliate').evidence).toBe(
        '2 of the 6 newest video descriptions link to shops through affiliate links (amzn.to, amazon.com). 1 of the 6 newest videos carries an affiliate disclosure ("As an Amazon Associate I earn from qualifying purchases.").',
      );
      expect(method('affiliate').source_url).toBe('https://www.youtube.com/watch?v=extVideo001');
      expect(method('sponsorships').evidence).toMatch(/^1 of the 6 newest videos carries a sponsorship \("This video is sponsored by Example VPN/);
      expect(method('coaching').source_url).toBe('https://www.youtube.com/watch?v=extVideo003');
      expect(method('tickets').evidence).toContain('eventbrite.com');

      expect(body.products).toEqual([
        { name: 'Dumpling Club T-shirt', method: 'merch', price: 32, currency: 'CAD', billing: 'one_time', url: 'https://shop.cozykitchen.example/products/dumpling-club-t-shirt' },
        { name: 'Apron', method: 'merch', price: 45.5, currency: 'CAD', billing: 'one_time', url: 'https://shop.cozykitchen.example/products/apron' },
        { name: 'Knife Skills Masterclass', method: 'course', price: 149, currency: 'USD', billing: 'one_time', url: 'https://learn.cozykitchen.example/courses/knife-skills' },
        { name: 'Bread for Beginners', method: 'course', price: 49, currency: 'USD', billing: 'one_time', url: 'https://learn.cozykitchen.example/courses/bread' },
        { name: 'Kitchen Club', method: 'course', price: 9.99, currency: 'USD', billing: 'monthly', url: 'https://learn.cozykitchen.example/courses' },
      ]);
      expect(body.store_urls).toEqual([
        'https://shop.cozykitchen.example/',
        'https://learn.cozykitchen.example/courses',
        'https://www.patreon.com/cozykitchen',
        'https://calendly.com/cozykitchen/session',
        'https://www.eventbrite.com/e/cozy-cook-along-123',
      ]);
      expect(body.funnel).toMatchObject({
        entry_points: ['video descriptions', 'about page', 'link hub'],
        description_link_share: 0.67,
        link_hub_url: 'https://linktr.ee/cozykitchen',
        email_capture: true,
        est_click_through_rate: 0.0107,
        est_conversion_rate: 0.0118,
      });
      expect(body.funnel!.est_monthly_link_clicks).toBeGreaterThan(0);
      expect(body.summary).toBe(
        'Cozy Kitchen sells merch, online courses, a paid membership, coaching and event tickets (5 products in 5 stores) and earns from affiliate links and sponsorships.',
      );
      // Only the six newest videos are read; only three stores.
      expect(get().server.seen.some((request) => request.key.videoId === 'extVideo007')).toBe(false);
      expect(get().server.seen.filter((request) => request.path.startsWith('/external/')).map((request) => request.path)).toEqual([
        '/external/shop.cozykitchen.example/',
        '/external/shop.cozykitchen.example/products.json',
        '/external/learn.cozykitchen.example/courses',
        '/external/www.patreon.com/cozykitchen',
      ]);
      // Outside pages never get the site's cookies or anything of the caller.
      for (const request of get().server.seen.filter((seen) => seen.path.startsWith('/external/'))) {
        expect(request.headers.cookie).toBeUndefined();
        expect(request.headers.authorization).toBeUndefined();
      }
    });

    it('answers the stored result under skip_live and a fresh enough cached_ok_secs, without reading the site', async () => {
      const before = playerReads();
      const skipped = await user.call('monetization.external', { channel_id: SELLER, skip_live: true });
      expect(skipped).toMatchObject({ classified: true, checked_live: false, classifier_version: LIVE_EXTERNAL_CLASSIFIER_VERSION });
      const cached = await user.call('monetization.external', { channel_id: SELLER, cached_ok_secs: 3600 });
      expect(cached).toMatchObject({ classified: true, checked_live: false });
      expect(cached.methods).toEqual(skipped.methods);
      expect(playerReads()).toBe(before);
      const fresh = await user.call('monetization.external', { channel_id: SELLER, cached_ok_secs: 0 });
      expect(fresh.checked_live).toBe(true);
      expect(playerReads()).toBe(before + 6);
    });

    it('never reuses a result of another classifier version under cached_ok_secs', async () => {
      await get().engine.store.run("UPDATE external_monetization SET classifier_version = 'sample-2026.11' WHERE channel_id = ?", [SELLER]);
      const body = await user.call('monetization.external', { channel_id: SELLER, cached_ok_secs: 86_400 });
      expect(body).toMatchObject({ checked_live: true, classifier_version: LIVE_EXTERNAL_CLASSIFIER_VERSION });
    });

    it('says so when the pages show nothing sold, and skip_live answers classified: false before any run', async () => {
      expect(await user.call('monetization.external', { channel_id: QUIET, skip_live: true })).toMatchObject({ classified: false, methods: [], funnel: null });
      const body = await user.call('monetization.external', { channel_id: QUIET });
      expect(body).toMatchObject({ classified: true, methods: [], products: [], store_urls: [], funnel: null });
      expect(body.summary).toBe('Quiet Channel shows no external monetization: no store, paid offer, affiliate link or sponsor was found.');
    });

    it('answers 502 and stores nothing when the classifier fails', async () => {
      const classifiedAt = () => get().engine.store.get('SELECT classified_at FROM external_monetization WHERE channel_id = ?', [SELLER]);
      const before = await classifiedAt();
      expect(before).toBeDefined();
      await setFault(get().engine.settings, 'monetization-classifier-fail');
      expect(await failure(user.call('monetization.external', { channel_id: SELLER }))).toMatchObject({ status: 502, code: 'upstream_error' });
      expect(await classifiedAt()).toEqual(before);
      expect(get().server.unmatched).toEqual([]);
    });
  },
  { postgres: true },
);
