/**
 * Remote mode against a server that speaks only what the spec shows (issue 23): it records every
 * request's exact URL and answers minimal bodies — no `total`, `total_pages`, `world_time`,
 * `metric` or `period`. Parameters at their default are never sent; human output prints what is there.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

const CHANNEL = 'UCnjgVTsmU7Ql4Vzmi0HEN8Q';

const terminatedChannel = {
  channel_id: 'UCaaaaaaaaaaaaaaaaaaaaaa',
  channel_title: 'Gone Cooking',
  subscriber_count: 1200,
  view_count: 50_000,
  avg_views_per_video: 500,
  total_videos: 100,
  primary_language: 'en',
  monetized: false,
  is_low_quality: false,
  thumbnail_url: 'https://example.com/t.jpg',
  first_upload_date: '2020-01-01',
  terminated_date: '2025-01-01',
  terminated_days_ago: 300,
  view_increase_24h: null,
  sub_increase_24h: null,
  view_increase_48h: null,
  sub_increase_48h: null,
  similarity_score: 70,
  recent_videos: [],
};

/** What the server answers per path; the page number picks a page of the terminated search. */
function answer(url: URL): unknown {
  switch (url.pathname) {
    case '/api/terminated-channels':
    {
      // A full first page, one channel on the second: nothing says how many there are.
      const page = Number(url.searchParams.get('page') ?? '1');
      const perPage = Number(url.searchParams.get('per_page') ?? '20');
      return { success: true, channels: Array(page === 1 ? perPage : page === 2 ? 1 : 0).fill(terminatedChannel) };
    }
    case '/api/health':
      return { status: 'healthy' };
    case '/api/folders':
      return { success: true, folders: [] };
    case '/api/alerts/outlier-status':
      return { success: true, alerts: [{ alert_id: 1, name: 'Cooking', alert_type: 'outlier', enabled: true, new_channels: 2 }] };
    case '/api/alerts/triggered':
      return { success: true, channels: [{ channel_id: CHANNEL, handle: '@cook', title: 'Cook', alert_type: 'outlier', reason: 'an outlier video' }] };
    case '/api/collabs/fastest-growing':
      return { success: true, computed_at: '2026-11-01T00:00:00Z', growth_through: '2026-10-31', channels: [{ rank: 1, channel_id: CHANNEL, handle: '@cook', title: 'Cook', growth: 10, partners: 2, collab_videos: 3 }] };
    case `/api/channel-cms/${CHANNEL}`:
      return { success: true, channel_id: CHANNEL, status: 'not_managed', source: 'live' };
    default:
      return undefined;
  }
}

describe('remote mode against a server with the spec\'s minimal bodies', () => {
  let cli: CliSandbox;
  let server: http.Server;
  let urls: string[] = [];
  let env: Record<string, string>;
  beforeAll(async () => {
    cli = cliSandbox();
    server = http.createServer((request, response) => {
      urls.push(request.url!);
      // As the hosted service: health is open (whatever key comes with it); folders need the key.
      if (request.url === '/api/folders' && request.headers.authorization !== 'Bearer k') {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success: false, error: 'Invalid API key', code: 'unauthorized' }));
        return;
      }
      const body = answer(new URL(request.url!, 'http://x'));
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body ?? { success: false, error: 'Not found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    env = { TUBEKIT_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, TUBEKIT_API_KEY: 'k' };
  });
  beforeEach(() => {
    urls = [];
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    cli.cleanup();
  });

  it('sends no parameter at its default, and true flags as 1', async () => {
    expect((await cli.run(['cms', CHANNEL], { env })).exitCode).toBe(0);
    expect((await cli.run(['cms', CHANNEL, '--refresh', '--full-network'], { env })).exitCode).toBe(0);
    expect((await cli.run(['alerts', 'triggered'], { env })).exitCode).toBe(0);
    expect((await cli.run(['alerts', 'triggered', '--history', '--page', '2'], { env })).exitCode).toBe(0);
    expect((await cli.run(['terminated', 'cooking'], { env })).exitCode).toBe(0);
    expect(urls).toEqual([
      `/api/channel-cms/${CHANNEL}`,
      `/api/channel-cms/${CHANNEL}?refresh=1&full_network=1`,
      '/api/alerts/triggered',
      '/api/alerts/triggered?history=1&page=2',
      '/api/terminated-channels?q=cooking',
    ]);
  });

  it('prints terminated pages without total or total_pages, and walks --all until a page comes back short', async () => {
    const page = await cli.run(['terminated', 'cooking'], { env });
    expect(page.exitCode).toBe(0);
    const rows = page.stdout.trim().split('\n');
    expect(rows).toHaveLength(20);
    expect(rows[0]!.split('\t')[1]).toBe('Gone Cooking');
    expect(page.stderr).toBe('');
    const all = await cli.run(['terminated', 'cooking', '--all', '--json'], { env });
    expect(all.exitCode).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual({ success: true, channels: Array(51).fill(terminatedChannel) });
    expect(urls.slice(-2)).toEqual(['/api/terminated-channels?q=cooking&per_page=50', '/api/terminated-channels?q=cooking&per_page=50&page=2']);
    expect(all.stderr).toBe('');
    const table = await cli.run(['terminated', 'cooking', '--all'], { env });
    expect(table.stdout.trim().split('\n')).toHaveLength(51);
  });

  it('prints alerts status and collabs top without the fields only tubekit\'s engine sends', async () => {
    const status = await cli.run(['alerts', 'status'], { env });
    expect(status.exitCode).toBe(0);
    expect(status.stdout.split('\t').slice(0, 5)).toEqual(['1', 'Cooking', 'outlier', 'yes', '2']);
    expect(status.stdout + status.stderr).not.toMatch(/undefined/);
    expect((await cli.run(['alerts', 'status', '--fail-on-new'], { env })).exitCode).toBe(1);
    const top = await cli.run(['collabs', 'top'], { env });
    expect(top.exitCode).toBe(0);
    expect(top.stdout).toMatch(/^1\tUCnjgVTsmU7Ql4Vzmi0HEN8Q\t@cook\tCook/);
    expect(top.stderr).toBe('Growth through 2026-10-31 (computed at 2026-11-01T00:00:00Z, world time).\n');
    const triggered = await cli.run(['alerts', 'triggered', '--fail-on-new'], { env });
    expect(triggered.exitCode).toBe(1);
    expect(triggered.stdout + triggered.stderr).not.toMatch(/undefined|Cannot read/);
  });

  it('checks a key with a call that needs one, not the open health route', async () => {
    const refused = await cli.run(['--json', 'auth', 'status'], { env: { ...env, TUBEKIT_API_KEY: 'wrong' } });
    expect(refused.exitCode).toBe(4);
    expect(JSON.parse(refused.stdout)).toMatchObject({ authenticated: false });
    expect(urls).toContain('/api/folders');
    expect(urls).not.toContain('/api/health');
    const accepted = await cli.run(['--json', 'auth', 'status'], { env });
    expect(accepted.exitCode).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({ authenticated: true });
    const login = await cli.run(['--profile', 'spec', 'auth', 'login'], { env: { TUBEKIT_BASE_URL: env.TUBEKIT_BASE_URL! }, input: 'wrong' });
    expect(login.exitCode).toBe(4);
    expect(login.stderr).toContain('refused the key');
  });
});
