/**
 * The dashboard's first paint in Debian's chromium (playwright-core): the folder page of a folder
 * of 200 channels (the folder cap raised for it; the page shows the first 25, sorted on the
 * server) and the channel page with a year of daily history. Each visit is a fresh browser context
 * (nothing cached): time to the `load` event beside the sign-in page's (the browser's floor), bytes
 * transferred (document and assets), and the page's HTML over fetch beside its JSON twin's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { Engine } from '../src/engine/engine.js';
import { startServer } from '../src/server/serve.js';
import { median, timeMedian, type BenchRow } from './table.js';

const RUNS = 9;
const CHANNELS = 200;
const CHROMIUM = [process.env.TUBEKIT_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((file) => file && fs.existsSync(file));

export async function dashboardRows(): Promise<BenchRow[]> {
  if (!CHROMIUM) throw new Error('chromium is not installed (Debian: apt-get install chromium): the dashboard bench needs it');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-dashboard-'));
  const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' }, planOverrides: { ultimate: { channelsPerFolder: CHANNELS } } });
  const key = (await engine.identity.createUserWithKey('ultimate', [])).key;
  const user = await engine.authenticate(key);
  const server = await startServer({ engine, port: 0, workers: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  try {
    const ids: string[] = [];
    for await (const page of (await engine.index()).channels.scan()) {
      ids.push(...page.map((channel) => channel.channel_id));
      if (ids.length >= CHANNELS) break;
    }
    const folder = (await engine.handle('folders.create', { name: 'Bench' }, user)).folder;
    await engine.handle('saved.add', { channel_ids: ids.slice(0, CHANNELS), folder_id: folder.id }, user);

    const signIn = await browser.newContext();
    const page = await signIn.newPage();
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/folders$/);
    const storageState = await signIn.storageState();
    await signIn.close();

    /** Load time and bytes of one cold visit. */
    const visit = async (url: string) => {
      const context = await browser.newContext({ storageState });
      const tab = await context.newPage();
      await tab.goto(url, { waitUntil: 'load' });
      const figures = await tab.evaluate(() => {
        const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        return { loadMs: navigation.loadEventStart, bytes: navigation.transferSize + resources.reduce((sum, entry) => sum + entry.transferSize, 0) };
      });
      await context.close();
      return figures;
    };
    const measure = async (url: string) => {
      await visit(url); // warms the server's reads, not the browser's cache
      const visits = [];
      for (let run = 0; run < RUNS; run += 1) visits.push(await visit(url));
      return { loadMs: median(visits.map((v) => v.loadMs)), kb: median(visits.map((v) => v.bytes)) / 1024 };
    };
    const json = (route: string) => timeMedian(RUNS, async () => (await fetch(`${server.url}${route}`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer());
    const cookie = storageState.cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
    /** The page's HTML alone over fetch: the server's share of the load time. */
    const html = (route: string) => timeMedian(RUNS, async () => (await fetch(`${server.url}${route}`, { headers: { cookie } })).arrayBuffer());

    const rows: BenchRow[] = [];
    // The browser's floor on this machine: the sign-in page (a form, the same two assets).
    const floor = { name: 'sign-in page (load event)', value: (await measure(`${server.url}/sign-in`)).loadMs };
    const folderPage = await measure(`${server.url}/folders/${folder.id}`);
    const folderJson = { name: `GET /api/folders/:id/channels (${CHANNELS} channels)`, value: await json(`/api/folders/${folder.id}/channels`) };
    rows.push({ name: `dashboard: folder page, ${CHANNELS} channels, first page of 25 with sparklines (load event, p50)`, value: folderPage.loadMs, unit: 'ms', baseline: floor, budget: '≤ 300 ms' });
    rows.push({ name: 'dashboard: folder page, bytes transferred (document and assets)', value: folderPage.kb, unit: 'KB', budget: '≤ 200 KB' });
    rows.push({ name: 'dashboard: folder page HTML over fetch (p50)', value: await html(`/folders/${folder.id}`), unit: 'ms', baseline: folderJson });
    const channelPage = await measure(`${server.url}/channels/${ids[0]}?days=365`);
    const historyJson = { name: 'GET /api/channels/:id/history?days=365', value: await json(`/api/channels/${ids[0]}/history?days=365`) };
    rows.push({ name: 'dashboard: channel page, 365 days of history, 3 charts (load event, p50)', value: channelPage.loadMs, unit: 'ms', baseline: floor, budget: '≤ 300 ms' });
    rows.push({ name: 'dashboard: channel page, bytes transferred (document and assets)', value: channelPage.kb, unit: 'KB', budget: '≤ 200 KB' });
    rows.push({ name: 'dashboard: channel page HTML over fetch (p50)', value: await html(`/channels/${ids[0]}?days=365`), unit: 'ms', baseline: historyJson });
    return rows;
  } finally {
    await browser.close();
    await server.close();
    engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
