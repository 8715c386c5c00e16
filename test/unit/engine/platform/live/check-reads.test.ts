/**
 * The live platform's reads for the channel checks, against fixture servers on 127.0.0.1: watch
 * pages for the ad check (a refusal is a blocked page, not a failed check), a channel's pages, and
 * pages outside the site (stores) — through the origin override with the host kept as a path prefix,
 * within size, time and redirect limits, never to this machine's network, never with cookies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LivePlatform } from '../../../../../src/engine/platform/live/live-platform.js';
import { DEFAULT_NETWORK, type LiveNetworkSettings } from '../../../../../src/engine/platform/live/network-options.js';
import { openLivePlatform } from '../../../../../src/engine/platform/live/open.js';
import { createOutsideReader, OUTSIDE_LIMITS, pinnedAgent, unreadableHost } from '../../../../../src/engine/platform/live/outside-page.js';
import { isPrivateAddress } from '../../../../../src/engine/private-address.js';
import { missingChannel, SITE_NOW, siteExchanges, type SiteChannel } from '../../../../support/live-check-site.js';
import { type FixtureExchange, type FixtureServer, startFixtureServer } from '../../../../support/platform-fixture-server.js';

let server: FixtureServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function settings(extra: Partial<LiveNetworkSettings> = {}): LiveNetworkSettings {
  return { ...DEFAULT_NETWORK, origin: server!.origin, requestsPerSecond: 1000, backoffBaseMs: 1, backoffCapMs: 5, retries: 1, ...extra };
}

async function live(exchanges: FixtureExchange[]): Promise<LivePlatform> {
  server = await startFixtureServer(exchanges);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-live-checks-'));
  dirs.push(dataDir);
  return openLivePlatform({ dataDir, network: settings(), clock: () => SITE_NOW });
}

const CHANNEL = 'UCliveReadsChannel000001';
const channel: SiteChannel = {
  id: CHANNEL,
  title: 'Reads',
  handle: '@reads',
  links: [{ title: 'A very long link the page shows cut short', url: 'https://store.example/collections/everything-we-sell?utm_source=youtube&ref=channel' }],
  videos: [
    { id: 'rdsVideo001', title: 'Ads', ago: '1 day ago', ads: 'yt_ad', description: 'One', music: [{ song: 'S', artist: 'A', licenses: 'Example Music Group; BMI' }] },
    { id: 'rdsVideo002', title: 'Bot check', ago: '2 days ago', playability: 'bot_check' },
    { id: 'rdsVideo003', title: 'Members', ago: '3 days ago', playability: 'members_only', description: 'Members only' },
    { id: 'rdsVideo004', title: 'Silent', ago: '4 days ago', ads: 'silent', paidPromotion: true, description: 'Four' },
  ],
};

describe("the checks' reads of a channel", () => {
  it('reads the ad pages: a bot check refused after the retries is a blocked page with the reason', async () => {
    const platform = await live(siteExchanges([channel]));
    const pages = await platform.readAdPages(CHANNEL);
    expect(pages.map((page) => [page.video_id, page.outcome])).toEqual([
      ['rdsVideo001', 'music_claim'],
      ['rdsVideo002', 'blocked'],
      ['rdsVideo003', 'blocked'],
      ['rdsVideo004', 'unclear'],
    ]);
    expect(pages[1]!.signals).toEqual([expect.objectContaining({ id: 'refused', evidence: expect.stringContaining('asks to confirm this is not a bot') })]);
    expect(pages[2]).toMatchObject({ membership: true, signals: [{ id: 'members_only' }] });
    // The bot check was asked again before giving up (the network layer's retries).
    expect(server!.seen.filter((request) => request.key.videoId === 'rdsVideo002' && request.path.endsWith('/player'))).toHaveLength(2);
  });

  it("reads a channel's pages: links whole (from the site's redirect), descriptions, disclosures, licensing rows, what could not be read", async () => {
    const platform = await live(siteExchanges([channel]));
    const pages = (await platform.publicPages.channelPages(CHANNEL, { videos: 4, licensing: true }))!;
    expect(pages).toMatchObject({ channel_id: CHANNEL, channel_url: `https://www.youtube.com/channel/${CHANNEL}/about`, title: 'Reads', official_artist: false });
    expect(pages.links).toEqual([{ title: 'A very long link the page shows cut short', url: 'https://store.example/collections/everything-we-sell?utm_source=youtube&ref=channel' }]);
    expect(pages.videos.map((video) => [video.video_id, video.description, video.paid_promotion, video.licensing])).toEqual([
      ['rdsVideo001', 'One', false, ['Example Music Group; BMI']],
      ['rdsVideo003', 'Members only', false, []],
      ['rdsVideo004', 'Four', true, []],
    ]);
    expect(pages.videos[0]).toMatchObject({ url: 'https://www.youtube.com/watch?v=rdsVideo001', views: 20_000, published_at: '2026-11-20T17:00:00Z' });
    expect(pages.unread).toEqual([expect.objectContaining({ id: 'refused', url: 'https://www.youtube.com/watch?v=rdsVideo002' })]);
    // Without licensing, no watch-next answer is asked for.
    const before = server!.seen.filter((request) => request.path.endsWith('/next')).length;
    await platform.publicPages.channelPages(CHANNEL, { videos: 1, licensing: false });
    expect(server!.seen.filter((request) => request.path.endsWith('/next'))).toHaveLength(before);
  });

  it('answers null for a channel the site does not show', async () => {
    const plain404: FixtureExchange = { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: 'UCliveReadsPlain404000001' }, status: 404, body: 'Not Found' };
    const platform = await live([missingChannel('UCliveReadsMissing000001'), plain404]);
    expect(await platform.publicPages.channelPages('UCliveReadsMissing000001', { videos: 3, licensing: false })).toBeNull();
    // A bare 404 (no NOT_FOUND answer from the site) is a page that could not be read, not a gone channel.
    await expect(platform.publicPages.channelPages('UCliveReadsPlain404000001', { videos: 3, licensing: false })).rejects.toMatchObject({ code: 'upstream_error' });
  });
});

describe('pages outside the site', () => {
  const page = (route: string, extra: Partial<FixtureExchange> = {}): FixtureExchange => ({ method: 'GET', path: `/external/${route}`, key: {}, body: `<p>${route}</p>`, ...extra });

  it('go to the origin override as /external/<host><path>?<query>, with no cookies', async () => {
    server = await startFixtureServer([page('shop.example/collections/all')]);
    const cookies = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-cookies-')), 'cookies.txt');
    dirs.push(path.dirname(cookies));
    fs.writeFileSync(cookies, '.shop.example\tTRUE\t/\tFALSE\t0\tsession\tsecret\n.youtube.com\tTRUE\t/\tFALSE\t0\tSID\tsecret\n');
    const read = await createOutsideReader(settings({ cookiesFile: cookies }));
    const answer = await read('https://shop.example/collections/all?page=2');
    expect(answer).toEqual({ ok: true, url: 'https://shop.example/collections/all?page=2', status: 200, content_type: 'text/plain; charset=UTF-8', text: '<p>shop.example/collections/all</p>', truncated: false });
    expect(server.seen[0]!.headers.cookie).toBeUndefined();
    expect(server.seen[0]!.headers['user-agent']).toMatch(/Mozilla/);
  });

  it('follow redirects through the override, judging each, up to a limit', async () => {
    server = await startFixtureServer([
      page('a.example/start', { status: 302, headers: { location: 'https://b.example/next' } }),
      page('b.example/next', { status: 301, headers: { location: '/final' } }),
      page('b.example/final'),
      page('c.example/inside', { status: 302, headers: { location: 'http://127.0.0.1:9/admin' } }),
      page('d.example/loop', { status: 302, headers: { location: 'https://d.example/loop' } }),
    ]);
    const read = await createOutsideReader(settings());
    expect(await read('https://a.example/start')).toMatchObject({ ok: true, url: 'https://b.example/final', text: '<p>b.example/final</p>' });
    expect(await read('https://c.example/inside')).toEqual({ ok: false, url: 'http://127.0.0.1:9/admin', reason: 'a port other than the default (9)' });
    expect(await read('https://d.example/loop')).toEqual({ ok: false, url: 'https://d.example/loop', reason: `more than ${OUTSIDE_LIMITS.maxRedirects} redirects` });
    expect(server.seen.filter((request) => request.path === '/external/d.example/loop')).toHaveLength(OUTSIDE_LIMITS.maxRedirects + 1);
  });

  it('read at most the size limit, and give up at the time limit', async () => {
    server = await startFixtureServer([page('big.example/', { body: 'x'.repeat(50_000) })], { hang: ['/external/slow.example/'] });
    const read = await createOutsideReader(settings(), { maxBytes: 1_000, timeoutMs: 300, maxRedirects: 3 });
    const big = await read('https://big.example/');
    expect(big).toMatchObject({ ok: true, truncated: true });
    expect(big.ok && big.text.length).toBe(1_000);
    expect(await read('https://slow.example/')).toEqual({ ok: false, url: 'https://slow.example/', reason: 'timed out after 0.3s' });
  });

  it('never reach this machine or its network', async () => {
    server = await startFixtureServer([]);
    const read = await createOutsideReader({ ...DEFAULT_NETWORK, requestsPerSecond: 1000 }, OUTSIDE_LIMITS, { lookup: async () => ['10.1.2.3'] });
    expect(await read('https://store.example/')).toEqual({ ok: false, url: 'https://store.example/', reason: 'store.example resolves to an address of a private network (10.1.2.3)' });
    for (const [url, reason] of [
      ['http://127.0.0.1/', 'an address of a private network (127.0.0.1)'],
      ['http://[::1]/', 'an address of a private network (::1)'],
      ['http://169.254.169.254/latest/meta-data', 'an address of a private network (169.254.169.254)'],
      ['http://localhost/', 'not a public host name (localhost)'],
      ['http://printer.local/', 'not a public host name (printer.local)'],
      ['https://shop.example:8443/', 'a port other than the default (8443)'],
      ['https://user:pw@shop.example/', 'a URL with credentials'],
      ['file:///etc/passwd', 'not an http(s) page (file:)'],
    ]) {
      expect(unreadableHost(new URL(url!)), url).toBe(reason);
      expect(await read(url!), url).toMatchObject({ ok: false, reason });
    }
    expect(await read('not a url')).toEqual({ ok: false, url: 'not a url', reason: 'not a URL' });
    expect(server.seen).toEqual([]);
  });

  it('tell private addresses from public ones', () => {
    for (const address of ['10.0.0.1', '172.16.5.4', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:2800:220:1::1', '::ffff:5db8:d822']) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('tell private IPv6 addresses in every spelling: long forms, IPv4 inside, NAT64, 6to4, zones', () => {
    for (const address of ['0:0:0:0:0:0:0:1', '0000:0000::0001', '::127.0.0.1', '::ffff:0:0:7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '2002:7f00:1::1', '2002:a9fe:a9fe::', 'fe80::1%eth0', 'FD12:3456::1', 'fec0::1', 'ff02::1', '2001:db8::1', '100::1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['64:ff9b::5db8:d822', '2002:5db8:d822::1', '2a00:1450:4001:80b::200e']) expect(isPrivateAddress(address), address).toBe(false);
  });

  it('take a host with a trailing dot for the host it is, and resolve a name once, connecting to the checked address', async () => {
    for (const [url, reason] of [
      ['http://localhost./', 'not a public host name (localhost)'],
      ['http://printer.local../', 'not a public host name (printer.local)'],
      ['http://127.0.0.1./', 'an address of a private network (127.0.0.1)'],
    ]) {
      expect(unreadableHost(new URL(url!)), url).toBe(reason);
    }
    // A name that answers public to the check and private afterwards: looked up once, then refused or pinned.
    const answers = ['93.184.216.34', '127.0.0.1'];
    let lookups = 0;
    const read = await createOutsideReader({ ...DEFAULT_NETWORK, requestsPerSecond: 1000 }, { ...OUTSIDE_LIMITS, timeoutMs: 300 }, {
      lookup: async () => [answers[Math.min(lookups++, 1)]!],
    });
    await read('https://rebind.example/');
    expect(lookups).toBe(1);
    // The pinned connection goes to the checked address whatever the name would resolve to.
    server = await startFixtureServer([{ method: 'GET', path: '/pinned', key: {}, body: 'pinned' }]);
    const { port } = new URL(server.origin);
    const undici = await import('undici');
    const agent = pinnedAgent(undici, '127.0.0.1');
    const response = await undici.fetch(`http://no-such-host.invalid:${port}/pinned`, { dispatcher: agent });
    expect(await response.text()).toBe('pinned');
    await agent.close();
  });
});
