/**
 * The dashboard in a real browser (Debian's chromium through playwright-core) over a served sample
 * world: sign-in, every page, charts read back from the page, alert forms, isolation between
 * users, the CSP, accessibility (axe-core) and screenshots at 1280 and 360 px.
 */
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteName } from '../../src/core/routes.js';
import type { ScannedChannel } from '../../src/engine/index/channels.js';
import { setWorkDuration, setWorkSetting } from '../../src/engine/simulated-work.js';
import { accessibilityViolations, artifactsDir, hasChromium, launchChromium } from '../support/browser.js';
import { startDashboard, type DashboardServer } from '../support/dashboard.js';

const WORLD = { seed: 21, channels: 400, terminated: 300 };

describe.runIf(hasChromium)('dashboard in chromium', () => {
  let dash: DashboardServer;
  let browser: Browser;
  let alice: BrowserContext;
  let aliceKey: string;
  let bobKey: string;
  let folderId: number;
  let channels: ScannedChannel[];
  /** Calls a route as a key's user, straight on the engine. */
  const as = async (key: string, name: RouteName, input: Record<string, unknown>) => dash.engine.handle(name, input, await dash.engine.authenticate(key));

  async function signIn(context: BrowserContext, key: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${dash.url}/`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${dash.url}/folders`);
    return page;
  }

  beforeAll(async () => {
    dash = await startDashboard(WORLD);
    browser = await launchChromium();
    aliceKey = await dash.key('professional');
    bobKey = await dash.key('starter');
    const index = await dash.engine.index();
    for await (const page of index.channels.scan()) {
      channels = page.slice(0, 30);
      break;
    }
    folderId = ((await as(aliceKey, 'folders.create', { name: 'Cooking & <Baking>' })) as { folder: { id: number } }).folder.id;
    await as(aliceKey, 'saved.add', { channel_ids: channels.map((channel) => channel.channel_id), folder_id: folderId });
    alice = await browser.newContext();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await dash?.close();
  });

  it('signs in with a key and shows the folders, with their JSON twin named', async () => {
    const page = await signIn(alice, aliceKey);
    await expect(page.getByRole('heading', { level: 1 })).toBeDefined();
    expect(await page.locator('h1').textContent()).toBe('Folders');
    expect(await page.locator('.twin code').first().textContent()).toBe('GET /api/folders');
    expect(await page.getByRole('link', { name: 'Cooking & <Baking>' }).count()).toBe(1);
    const cookies = await alice.cookies();
    const session = cookies.find((cookie) => cookie.name === 'tubekit_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(session.value).not.toContain(aliceKey);
    expect(await page.content()).not.toContain(aliceKey);
  });

  it('pages and sorts a folder\'s channels on the server, each row with a sparkline', async () => {
    const page = await alice.newPage();
    await page.goto(`${dash.url}/folders/${folderId}`);
    expect(await page.locator('tbody tr').count()).toBe(25);
    expect(await page.locator('tbody svg.spark').count()).toBe(25);
    expect(await page.locator('.pager').textContent()).toContain('Page 1 of 2');
    await page.getByRole('link', { name: 'Subscribers', exact: true }).click();
    await page.waitForURL(/sort=subscribers/);
    const figures = await page.locator('tbody tr td:nth-child(2)').allTextContents();
    const numbers = figures.map((text) => Number(text.replace(/,/g, '')));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    await page.getByRole('link', { name: 'Next' }).click();
    expect(await page.locator('tbody tr').count()).toBe(5);
    // The sparkline draws the known days of the history route, no more.
    const history = (await as(aliceKey, 'channels.history', { channel_id: channels[0]!.channel_id, days: 14 })) as { points: Array<{ subscribers: number | null }> };
    await page.goto(`${dash.url}/folders/${folderId}?sort=title&dir=asc`);
    const row = page.locator('tr', { has: page.locator(`a[href="/channels/${channels[0]!.channel_id}"]`) });
    expect(Number(await row.locator('svg.spark').getAttribute('data-points'))).toBe(history.points.filter((point) => point.subscribers !== null).length);
  });

  it('draws a channel\'s history with one dot per known day of the JSON route', async () => {
    const channel = channels[4]!;
    const page = await alice.newPage();
    await page.goto(`${dash.url}/channels/${channel.channel_id}?days=90`);
    expect(await page.locator('h1').textContent()).toBe(channel.title);
    const history = (await as(aliceKey, 'channels.history', { channel_id: channel.channel_id, days: 90 })) as { points: Array<Record<string, number | null>> };
    for (const metric of ['subscribers', 'views', 'videos']) {
      const known = history.points.filter((point) => point[metric] !== null).length;
      const chart = page.locator(`#chart-${metric}`);
      expect(await chart.locator('circle.dot').count()).toBe(known);
      expect(await chart.locator('svg').getAttribute('data-days')).toBe('90');
    }
    expect(await page.locator('.twin code').first().textContent()).toBe(`GET /api/channels/${channel.channel_id}/history?days=90`);
    // The script reads out the point picked with the keyboard.
    await page.locator('#chart-subscribers svg').focus();
    await page.keyboard.press('ArrowLeft');
    const last = history.points.filter((point) => point.subscribers !== null).at(-2)!;
    expect(await page.locator('#chart-subscribers output').textContent()).toBe(`${last.date}: ${Number(last.subscribers).toLocaleString('en-US')}`);
  });

  it('lists a channel\'s recent videos sorted on the server, and its stored check verdicts without running a check', async () => {
    const channel = channels[6]!;
    const page = await alice.newPage();
    await page.goto(`${dash.url}/channels/${channel.channel_id}`);
    const newest = (await as(aliceKey, 'channels.videos', { channel_id: channel.channel_id, limit: 10 })) as { videos: Array<{ video_id: string; title: string | null; views: number }> };
    const rows = page.locator('#recent-videos tbody tr');
    expect(await rows.count()).toBe(newest.videos.length);
    expect(await rows.locator('td.title').allTextContents()).toEqual(newest.videos.map((video) => video.title ?? video.video_id));
    expect(await page.locator('main').textContent()).toContain(`GET /api/channels/${channel.channel_id}/videos?limit=10&sort=newest`);
    await page.getByRole('link', { name: /most viewed/ }).click();
    await page.waitForURL(/videos=views/);
    const views = (await page.locator('#recent-videos tbody tr td:nth-child(4)').allTextContents()).map((text) => Number(text.replace(/,/g, '')));
    expect(views.length).toBeGreaterThan(0);
    expect(views).toEqual([...views].sort((a, b) => b - a));

    // Showing the page ran no check: nothing stored for ads until the user runs one.
    const checks = page.locator('#stored-checks');
    expect(await checks.locator('tr', { hasText: 'Ads' }).textContent()).toContain('not checked yet');
    expect(((await as(aliceKey, 'channels.checks', { channel_id: channel.channel_id })) as { ads: unknown }).ads).toBeNull();
    const ads = (await as(aliceKey, 'monetization.ads', { channel_id: channel.channel_id })) as { monetized: boolean | null; reason: string };
    await page.reload();
    const verdict = ads.monetized === null ? 'unknown' : ads.monetized ? 'monetized' : 'not monetized';
    expect(await checks.locator('tr', { hasText: 'Ads' }).locator('td').first().textContent()).toBe(verdict);
    expect(await checks.locator('tr', { hasText: 'Ads' }).textContent()).toContain(ads.reason);
  });

  it('shows a running job with the progress its status route tells', async () => {
    await setWorkDuration(dash.engine.settings, { min_ms: 30_000, max_ms: 30_000 });
    const { job_id: jobId } = (await as(aliceKey, 'channels.process', { channel: channels[8]!.channel_id, type: 'shorts' })) as { job_id: number };
    try {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
        if (((await as(aliceKey, 'channels.processStatus', { job_id: jobId })) as { status: string }).status === 'running') break;
      }
    } finally {
      // Only this job takes long: every later piece of simulated work is short again.
      await setWorkSetting(dash.engine.settings, { preset: 'short' });
    }
    const page = await alice.newPage();
    await page.goto(`${dash.url}/jobs`);
    const running = page.locator(`#running-${jobId}`);
    expect(await running.locator('progress').getAttribute('aria-label')).toBe(`Job ${jobId} in progress`);
    expect(await running.textContent()).toContain(channels[8]!.channel_id);
    const shown = Number(await running.locator('.elapsed').textContent());
    const status = (await as(aliceKey, 'channels.processStatus', { job_id: jobId })) as { elapsed_seconds: number };
    expect(shown).toBeGreaterThanOrEqual(0);
    expect(shown).toBeLessThanOrEqual(status.elapsed_seconds);
    // Another user's running job is not theirs to see.
    const bob = await browser.newContext();
    const bobPage = await signIn(bob, bobKey);
    await bobPage.goto(`${dash.url}/jobs`);
    expect(await bobPage.locator(`#running-${jobId}`).count()).toBe(0);
    expect(await bobPage.locator('main').textContent()).toContain('No job is running');
    await bob.close();
  });

  it('downloads a video\'s subtitles from the media page and shows the link the route answered; refuses a bad URL in place', async () => {
    const { videos } = (await as(aliceKey, 'channels.videos', { channel_id: channels[2]!.channel_id, limit: 1 })) as { videos: Array<{ video_id: string }> };
    const page = await alice.newPage();
    await page.goto(`${dash.url}/media`);
    const form = page.getByRole('form', { name: 'Download a video' });
    await form.getByLabel('Video URL or id').fill('not a video');
    await form.getByRole('button', { name: 'Download' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/video/i);
    await page.getByRole('form', { name: 'Download a video' }).getByLabel('Video URL or id').fill(`https://www.youtube.com/watch?v=${videos[0]!.video_id}`);
    await page.getByRole('form', { name: 'Download a video' }).getByLabel('Format').selectOption('subtitles');
    await page.getByRole('form', { name: 'Download a video' }).getByRole('button', { name: 'Download' }).click();
    const link = page.getByRole('status').getByRole('link');
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^http/);
    const file = await fetch(href);
    expect(file.status).toBe(200);
    expect(await file.text()).toMatch(/-->/);
  });

  it('creates an alert through the form, refuses bad input in place, and edits and disables it', async () => {
    const page = await alice.newPage();
    await page.goto(`${dash.url}/alerts`);
    const form = page.getByRole('form', { name: 'New alert' });
    await form.getByLabel('Name').fill('Fast <b>risers</b>');
    await form.getByLabel('Minimum subscribers').fill('lots');
    await form.getByRole('button', { name: 'Create alert' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/min_subs/);
    expect(await as(aliceKey, 'alerts.list', {})).toMatchObject({ count: 0 });
    await page.getByRole('form', { name: 'New alert' }).getByLabel('Minimum subscribers').fill('1000');
    await page.getByRole('form', { name: 'New alert' }).getByRole('button', { name: 'Create alert' }).click();
    await page.waitForURL(`${dash.url}/alerts`);
    expect(await page.getByRole('link', { name: 'Fast <b>risers</b>' }).count()).toBe(1);
    const created = (await as(aliceKey, 'alerts.list', {})) as { alerts: Array<{ id: number; filters: object; enabled: boolean }> };
    expect(created.alerts[0]).toMatchObject({ filters: { min_subs: 1000 }, enabled: true });

    await page.getByRole('link', { name: 'Fast <b>risers</b>' }).click();
    const edit = page.getByRole('form', { name: 'Edit alert' });
    expect(await edit.getByLabel('Minimum subscribers').inputValue()).toBe('1000');
    await edit.getByLabel('Name').fill('Faster risers');
    await edit.getByLabel('Maximum subscribers').fill('500000');
    await edit.getByLabel('Enabled').uncheck();
    await edit.getByRole('button', { name: 'Save alert' }).click();
    await page.waitForURL(`${dash.url}/alerts`);
    expect((await as(aliceKey, 'alerts.list', {})) as object).toMatchObject({ alerts: [{ name: 'Faster risers', enabled: false, filters: { min_subs: 1000, max_subs: 500000 } }] });
    await page.getByRole('button', { name: 'Enable Faster risers' }).click();
    await page.waitForURL(`${dash.url}/alerts`);
    expect((await as(aliceKey, 'alerts.list', {})) as object).toMatchObject({ alerts: [{ enabled: true }] });
  });

  it('refuses a wrong key and starts no session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${dash.url}/sign-in`);
    await page.getByLabel('API key').fill('tk_live_wrong_key_123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('That API key was refused');
    expect((await context.cookies()).some((cookie) => cookie.name === 'tubekit_session')).toBe(false);
    await page.goto(`${dash.url}/folders`);
    expect(page.url()).toBe(`${dash.url}/sign-in`);
    await context.close();
  });

  it('shows a second user none of the first user\'s folders, channels saved or alerts', async () => {
    const bob = await browser.newContext();
    const page = await signIn(bob, bobKey);
    expect(await page.locator('main').textContent()).toContain('No folders yet');
    const folder = await page.goto(`${dash.url}/folders/${folderId}`);
    expect(folder!.status()).toBe(404);
    expect(await page.locator('main').textContent()).not.toContain(channels[0]!.title);
    const alertId = ((await as(aliceKey, 'alerts.list', {})) as { alerts: Array<{ id: number }> }).alerts[0]!.id;
    expect((await page.goto(`${dash.url}/alerts/${alertId}`))!.status()).toBe(404);
    await page.goto(`${dash.url}/alerts`);
    expect(await page.locator('main').textContent()).not.toContain('Faster risers');
    await bob.close();
  });

  it('lets the CSP block a script injected into a page', async () => {
    const page = await alice.newPage();
    const violations: string[] = [];
    page.on('console', (message) => violations.push(message.text()));
    await page.goto(`${dash.url}/folders`);
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injectedRan = true;';
      document.body.append(script);
      return (window as unknown as { injectedRan?: boolean }).injectedRan === true;
    });
    expect(ran).toBe(false);
    expect(violations.join('\n')).toMatch(/Content Security Policy/);
  });

  it('searches terminated channels, pages them on the server, and lists jobs and media', async () => {
    const page = await alice.newPage();
    await page.goto(`${dash.url}/terminated`);
    await page.getByLabel('Keywords').fill('a');
    await page.getByRole('button', { name: 'Search' }).click();
    const search = (await as(aliceKey, 'terminated.search', { q: 'a', per_page: 20 })) as { total: number; channels: Array<{ channel_title: string }> };
    expect(await page.locator('tbody tr').count()).toBe(search.channels.length);
    expect(await page.locator('main').textContent()).toContain(`${search.total.toLocaleString('en-US')} channels match`);
    await page.goto(`${dash.url}/jobs`);
    expect(await page.locator('h1').textContent()).toBe('Jobs');
    await page.goto(`${dash.url}/media`);
    expect(await page.locator('main').textContent()).toContain('No generated audio yet');
  });

  const PAGES = () => ['/folders', `/folders/${folderId}`, `/channels/${channels[4]!.channel_id}`, '/alerts', '/jobs', '/media', '/terminated?q=a', '/sign-in'];

  it('passes axe-core\'s WCAG A/AA checks on every page, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = colorScheme === 'light' ? alice : await browser.newContext({ colorScheme, storageState: await alice.storageState() });
      const page = await context.newPage();
      for (const url of PAGES()) {
        await page.goto(`${dash.url}${url}`);
        expect({ url, colorScheme, violations: await accessibilityViolations(page) }).toEqual({ url, colorScheme, violations: [] });
      }
      if (context !== alice) await context.close();
    }
  }, 120_000);

  it('follows the system colour scheme', async () => {
    const background = async (colorScheme: 'light' | 'dark') => {
      const context = await browser.newContext({ colorScheme, storageState: await alice.storageState() });
      const page = await context.newPage();
      await page.goto(`${dash.url}/folders`);
      const color = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      await context.close();
      return color;
    };
    expect(await background('light')).toBe('rgb(255, 255, 255)');
    expect(await background('dark')).toBe('rgb(18, 18, 18)');
  });

  it('fits every page in 360 px without sideways scrolling, and writes screenshots at 1280 and 360 px', async () => {
    const dir = artifactsDir();
    for (const width of [1280, 360]) {
      const context = await browser.newContext({ viewport: { width, height: 800 }, storageState: await alice.storageState() });
      const page = await context.newPage();
      for (const url of PAGES()) {
        await page.goto(`${dash.url}${url}`);
        if (width === 360) expect({ url, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ url, width: 360 });
        const name = url.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'root';
        await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
      }
      await context.close();
    }
  }, 120_000);
});
