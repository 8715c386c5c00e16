/** The live external-monetization classifier's rules: links, calls to action, store pages, the funnel. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyPublicPages, findOffers } from '../../../src/engine/features/checks/external/live-classifier.js';
import { classifyLink, linksIn, PHRASES } from '../../../src/engine/features/checks/external/link-rules.js';
import { declaredCurrency, isShopify, jsonLdProducts, shopifyProducts, shopifyProductsUrl } from '../../../src/engine/features/checks/external/store-products.js';
import type { ChannelPages, PublicPageReads } from '../../../src/engine/platform/public-pages.js';
import { PLATFORM_FIXTURES } from '../../support/platform-fixture-server.js';

const kind = (url: string, context = '') => {
  const found = classifyLink(new URL(url), context);
  return found.kind === 'method' ? found.method : found.kind;
};
const phrases = (line: string) => PHRASES.filter((rule) => rule.pattern.test(line)).map((rule) => rule.method);
const fixture = (name: string) => fs.readFileSync(path.join(PLATFORM_FIXTURES, name), 'utf8');

describe('links', () => {
  it('maps hosts to methods: memberships, stores, courses, booking, tickets, affiliate links', () => {
    expect(kind('https://www.patreon.com/someone')).toBe('membership');
    expect(kind('https://ko-fi.com/someone')).toBe('membership');
    expect(kind('https://www.youtube.com/channel/UCaaaaaaaaaaaaaaaaaaaaaa/join')).toBe('membership');
    expect(kind('https://someone-store.creator-spring.com/')).toBe('merch');
    expect(kind('https://someone.myshopify.com/products/x')).toBe('merch');
    expect(kind('https://shop.someone.example/')).toBe('merch');
    expect(kind('https://someone.teachable.com/p/course')).toBe('course');
    expect(kind('https://someone.gumroad.com/l/presets')).toBe('digital_products');
    expect(kind('https://calendly.com/someone/30min')).toBe('coaching');
    expect(kind('https://www.eventbrite.co.uk/e/show-1')).toBe('tickets');
    expect(kind('https://amzn.to/3abc')).toBe('affiliate');
    expect(kind('https://www.amazon.de/dp/B0?tag=someone-21')).toBe('affiliate');
    expect(kind('https://gear.example/item?aff_id=42')).toBe('affiliate');
  });

  it('reads the words around a link a host does not tell, and keeps social and streaming links out', () => {
    expect(kind('https://someone.example/things', 'Merch:')).toBe('merch');
    expect(kind('https://someone.example/learn', 'My new masterclass is out')).toBe('course');
    expect(kind('https://someone.example/', 'Tickets for summer shows 2026 on sale now.\n')).toBe('tickets');
    expect(kind('https://someone.example/')).toBe('other');
    expect(kind('https://www.amazon.com/dp/B0')).toBe('other');
    expect(kind('https://instagram.com/someone', 'Shop my looks')).toBe('other');
    expect(kind('https://open.spotify.com/artist/1')).toBe('other');
    expect(kind('https://linktr.ee/someone')).toBe('hub');
    expect(kind('https://someone.substack.com')).toBe('email');
  });

  it('finds the links written in a text, each with its line and the line before', () => {
    const found = linksIn('Tickets on sale now:\nhttps://tickets.example/show.\nhttp://twitter.com/x, and more');
    expect(found.map((link) => link.url.href)).toEqual(['https://tickets.example/show', 'http://twitter.com/x']);
    expect(found[0]!.context).toBe('Tickets on sale now:\nhttps://tickets.example/show.');
  });
});

describe('calls to action and disclosures', () => {
  it('reads sponsorships, affiliate disclosures, the Join button and ticket sales', () => {
    expect(phrases('This video is sponsored by Example VPN.')).toEqual(['sponsorships']);
    expect(phrases('Thanks to Example Co for sponsoring today’s video')).toEqual(['sponsorships']);
    expect(phrases('Use code COZY for 20% off')).toEqual(['sponsorships']);
    expect(phrases('Purchases made from store links may give me some money.')).toEqual(['affiliate']);
    expect(phrases('Some links are affiliate links.')).toEqual(['affiliate']);
    expect(phrases('If you want to support the channel, consider a Dave2D membership by clicking the “Join” button above!')).toEqual(['membership']);
    expect(phrases('Tickets for summer shows 2026 on sale now.')).toEqual(['tickets']);
    expect(phrases('A calm video about bread.')).toEqual([]);
  });

  it('counts the videos that link to an offer, a link hub or nothing', () => {
    const video = (n: number, description: string) => ({ video_id: `v${n}`, url: `https://www.youtube.com/watch?v=v${n}`, title: '', description, views: 0, published_at: '', paid_promotion: false, licensing: [] });
    const pages: ChannelPages = {
      channel_id: 'UCaaaaaaaaaaaaaaaaaaaaaa',
      channel_url: 'https://www.youtube.com/channel/UCaaaaaaaaaaaaaaaaaaaaaa/about',
      title: 'A',
      description: 'Join my mailing list!',
      links: [{ title: 'not a link', url: 'nope' }],
      official_artist: false,
      videos: [video(1, 'https://amzn.to/x'), video(2, 'https://linktr.ee/a'), video(3, 'https://instagram.com/a'), video(4, 'Sponsored by Example.')],
      unread: [],
    };
    const offers = findOffers(pages);
    expect([...offers.linkingVideos]).toEqual(['v1', 'v2']);
    expect(offers.hubs).toEqual(['https://linktr.ee/a']);
    expect(offers.email).toBe(true);
    expect(offers.findings.map((finding) => [finding.method, finding.videoId])).toEqual([
      ['affiliate', 'v1'],
      ['sponsorships', 'v4'],
    ]);
  });
});

describe('store pages', () => {
  it('reads schema.org products with offers from the JSON-LD, through @graph and item lists, skipping what has no price', () => {
    expect(jsonLdProducts(fixture('store-jsonld.html'), 'https://learn.cozykitchen.example/courses')).toEqual([
      { name: 'Knife Skills Masterclass', price: 149, currency: 'USD', billing: 'one_time', url: 'https://learn.cozykitchen.example/courses/knife-skills' },
      { name: 'Bread for Beginners', price: 49, currency: 'USD', billing: 'one_time', url: 'https://learn.cozykitchen.example/courses/bread' },
      { name: 'Kitchen Club', price: 9.99, currency: 'USD', billing: 'monthly', url: 'https://learn.cozykitchen.example/courses' },
    ]);
    expect(jsonLdProducts('<html><body>no data</body></html>', 'https://a.example/')).toEqual([]);
  });

  it("reads a Shopify store's product list, priced in the currency its page declares", () => {
    const page = fixture('store-shopify.html');
    expect(isShopify(page, 'https://shop.cozykitchen.example/')).toBe(true);
    expect(isShopify('<html></html>', 'https://x.myshopify.com/')).toBe(true);
    expect(isShopify('<html></html>', 'https://shop.example/')).toBe(false);
    expect(declaredCurrency(page)).toBe('CAD');
    expect(declaredCurrency('<meta property="og:price:currency" content="eur">')).toBe('EUR');
    expect(declaredCurrency('<html></html>')).toBeNull();
    expect(shopifyProductsUrl('https://shop.cozykitchen.example/collections/all')).toBe('https://shop.cozykitchen.example/products.json?limit=30');
    expect(shopifyProducts(fixture('store-products.json'), 'https://shop.cozykitchen.example/', 'CAD').map((product) => [product.name, product.price, product.url])).toEqual([
      ['Dumpling Club T-shirt', 32, 'https://shop.cozykitchen.example/products/dumpling-club-t-shirt'],
      ['Apron', 45.5, 'https://shop.cozykitchen.example/products/apron'],
    ]);
    expect(shopifyProducts('not json', 'https://a.example/', 'USD')).toEqual([]);
  });
});

describe('the classification of pages it could not read', () => {
  const reads = (pages: ChannelPages | null, outside: PublicPageReads['outsidePage'] = async (url) => ({ ok: false, url, reason: 'connection refused' })): PublicPageReads => ({
    channelPages: async () => pages,
    outsidePage: outside,
  });
  const base: ChannelPages = { channel_id: 'UCaaaaaaaaaaaaaaaaaaaaaa', channel_url: 'https://www.youtube.com/channel/UCaaaaaaaaaaaaaaaaaaaaaa/about', title: 'A', description: '', links: [], official_artist: false, videos: [], unread: [] };

  it('is a 502, not "sells nothing", when every video page was refused or the channel is gone', async () => {
    const refused = { ...base, unread: [{ id: 'refused', evidence: 'The site refused the read', url: 'https://www.youtube.com/watch?v=x' }] };
    await expect(classifyPublicPages(reads(refused), base.channel_id, 0)).rejects.toMatchObject({ status: 502, code: 'upstream_error', message: expect.stringContaining('refused all 1') });
    await expect(classifyPublicPages(reads(null), base.channel_id, 0)).rejects.toMatchObject({ status: 502 });
  });

  it('keeps a store it could not read among the stores, without products', async () => {
    const truth = await classifyPublicPages(reads({ ...base, links: [{ title: 'Merch', url: 'https://shop.a.example/' }] }), base.channel_id, 0);
    expect(truth).toMatchObject({ methods: [{ method: 'merch' }], products: [], store_urls: ['https://shop.a.example/'] });
    // A channel with no videos at all is read: it simply has no descriptions.
    expect(truth.funnel).toMatchObject({ entry_points: ['about page'], description_link_share: 0, est_monthly_link_clicks: 0 });
  });
});
