/**
 * The dashboard over a live data dir (a made-up site on a fixture server): channel titles with
 * HTML, script and odd Unicode render as text, and days the engine did not read are gaps in the
 * chart, not lines drawn across them.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock.js';
import { DAY_MS } from '../../src/engine/dates.js';
import { hasChromium, launchChromium } from '../support/browser.js';
import { cookingSite, JANE, siteId } from '../support/live-channels.js';
import { createHarness, type EngineHarness } from '../support/engines.js';
import { LIVE_START } from '../support/live-harness.js';
import { LiveSite } from '../support/live-site.js';
import { setJobWork } from '../support/channel-fixtures.js';
import { startFixtureServer, type FixtureServer } from '../support/platform-fixture-server.js';

const HOSTILE = siteId('liveHostile');
/** Markup, a script, an attribute break-out and Unicode that trips renderers (the fuzz corpus's kind). */
const HOSTILE_TITLE = '<script>window.titleRan=true</script><img src=x onerror="window.imgRan=true"> "Café" \u202e🎙️👩‍👩‍👧 İß';

const HOSTILE_DESCRIPTION = 'Line one</p><p onclick="x()">two\n<a href="javascript:alert(1)">link</a> & <!-- comment --> é';

describe.runIf(hasChromium)('dashboard on a live data dir in chromium', () => {
  let harness: EngineHarness;
  let close: () => Promise<void>;
  let server: FixtureServer;
  let browser: Browser;
  let page: Page;
  const clock = new ManualClock(LIVE_START);
  const sweep = async (hours: number) => {
    for (let step = 0; step < hours / 6; step++) {
      clock.advance(6 * 3_600_000);
      await harness.engine.refresh();
    }
  };

  beforeAll(async () => {
    const site = new LiveSite(() => clock.now());
    cookingSite(site, clock.now());
    site.add({ id: HOSTILE, handle: '@hostile', title: HOSTILE_TITLE, description: HOSTILE_DESCRIPTION, subscribers: 4_000, views: 80_000, videoCount: 3, joined: '2024-01-01', uploads: [] });
    server = await startFixtureServer(site.exchanges());
    const saved = { origin: process.env.TUBEKIT_PLATFORM_ORIGIN, rate: process.env.TUBEKIT_PLATFORM_RATE };
    process.env.TUBEKIT_PLATFORM_ORIGIN = server.origin;
    // The fixture site needs no pacing between reads.
    process.env.TUBEKIT_PLATFORM_RATE = '100';
    ({ harness, close } = await createHarness('remote', { clock, platform: 'live', jobTiming: { leaseMs: 400 * DAY_MS, hostStaleMs: 365 * DAY_MS, heartbeatMs: 1_000 } }));
    await harness.engine.platform();
    for (const [name, value] of [['TUBEKIT_PLATFORM_ORIGIN', saved.origin], ['TUBEKIT_PLATFORM_RATE', saved.rate]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await setJobWork(harness.engine, 0);
    const { key } = await harness.engine.identity.createUserWithKey('ultimate', ['generations']);
    const user = await harness.engine.authenticate(key);
    const folder = (await harness.engine.handle('folders.create', { name: 'Watched' }, user)).folder;
    await harness.engine.handle('saved.add', { channel_ids: [JANE, HOSTILE], folder_id: folder.id }, user);
    // Two days read every 6 hours, three days unread, then two more days read.
    await sweep(48);
    clock.advance(3 * DAY_MS);
    await sweep(48);
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    await page.goto(`${harness.baseUrl}/sign-in`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/folders$/);
    await page.goto(`${harness.baseUrl}/folders/${folder.id}`);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await close?.();
    await server?.close();
  });

  it('shows a channel title and description with markup and script as the text they are, running nothing', async () => {
    const link = page.locator(`a[href="/channels/${HOSTILE}"]`);
    expect(await link.textContent()).toBe(HOSTILE_TITLE);
    await link.click();
    expect(await page.locator('h1').textContent()).toBe(HOSTILE_TITLE);
    expect(await page.title()).toBe(`${HOSTILE_TITLE} · tubekit`);
    expect(await page.locator('p.description').textContent()).toBe(HOSTILE_DESCRIPTION);
    expect(await page.locator('main img, main script, main a[href^="javascript"], main [onclick]').count()).toBe(0);
    expect(await page.evaluate(() => [(window as never as { titleRan?: boolean }).titleRan, (window as never as { imgRan?: boolean }).imgRan])).toEqual([undefined, undefined]);
  });

  it('leaves the unread days as gaps: one dot per day the history route knows, the line broken between', async () => {
    await page.goto(`${harness.baseUrl}/channels/${JANE}?days=7`);
    const history = await (await fetch(`${harness.baseUrl}/api/channels/${JANE}/history?days=7`, { headers: { authorization: `Bearer ${(await harness.engine.identity.createUserWithKey('starter', [])).key}` } })).json() as { points: Array<{ subscribers: number | null }>; watched_since: string };
    const known = history.points.filter((point) => point.subscribers !== null).length;
    expect(known).toBeGreaterThan(0);
    expect(known).toBeLessThan(7);
    const chart = page.locator('#chart-subscribers');
    expect(await chart.locator('circle.dot').count()).toBe(known);
    // Each run of known days is one subpath: a gap starts a new one rather than joining across it.
    const runs = history.points.reduce((count, point, i) => count + (point.subscribers !== null && (i === 0 || history.points[i - 1]!.subscribers === null) ? 1 : 0), 0);
    const longRuns = history.points.filter((point, i) => point.subscribers !== null && i > 0 && history.points[i - 1]!.subscribers !== null && (i === 1 || history.points[i - 2]!.subscribers === null)).length;
    expect(runs).toBeGreaterThan(1);
    const path = (await chart.locator('path.line').getAttribute('d')) ?? '';
    expect(path.match(/M/g)?.length ?? 0).toBe(longRuns);
    // Segments join neighbouring known days only: one fewer than the dots of each run.
    expect(path.match(/L/g)?.length ?? 0).toBe(known - runs);
    expect(await page.locator('main').textContent()).toContain(`watched since ${history.watched_since}`);
  });
});
