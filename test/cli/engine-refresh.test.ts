/** `tubekit engine refresh` on the built binary: one sweep of a live data dir's watched channels now. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../support/cli.js';
import { siteId } from '../support/live-channels.js';
import { LiveSite } from '../support/live-site.js';
import { closedOrigin, startFixtureServer, type FixtureServer } from '../support/platform-fixture-server.js';

const CHANNEL = siteId('cliRefresh');

let cli: CliSandbox;
let server: FixtureServer | undefined;
beforeEach(() => {
  cli = cliSandbox();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  cli.cleanup();
});

async function liveDataDirWithASavedChannel(): Promise<Record<string, string>> {
  const site = new LiveSite(Date.now);
  site.add({
    id: CHANNEL,
    handle: '@clirefresh',
    title: 'CLI Refresh',
    subscribers: 4_321,
    views: 98_765,
    videoCount: 12,
    joined: '2020-01-01',
    uploads: [{ id: 'cliVideo001', title: 'One', views: 10, publishedMs: Date.now() - 86_400_000, channels: [CHANNEL], language: 'en' }],
  });
  server = await startFixtureServer(site.exchanges());
  const env = { TUBEKIT_PLATFORM_ORIGIN: server.origin, TUBEKIT_PLATFORM_RATE: '100' };
  expect((await cli.run(['engine', 'platform', 'live'])).exitCode).toBe(0);
  expect((await cli.run(['folders', 'create', 'Watched'], { env })).exitCode).toBe(0);
  const saved = await cli.run(['saved', 'add', CHANNEL, '--folder', '1'], { env });
  expect(saved.exitCode, saved.stderr).toBe(0);
  return env;
}

describe('engine refresh', () => {
  it('reads the watched channels that are due and prints one row each; --json is the report', async () => {
    const env = await liveDataDirWithASavedChannel();
    const run = await cli.run(['engine', 'refresh'], { env });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${CHANNEL}\tactive\tCLI Refresh\t4321\t98765\t1\t0\t\n`);
    expect(run.stderr).toBe('Read 1 of 1 due (1 watched, each every 6h); 0 left for the next sweep. Alerts: 0 evaluated, 0 new channel(s).\n');
    const again = await cli.run(['engine', 'refresh', '--every', '3h', '--json'], { env });
    expect(again.exitCode).toBe(0);
    const report = JSON.parse(again.stdout);
    expect(report).toMatchObject({ interval: '3h', watched: 1, due: 0, read: [], left: 0, terminations: { channel_ids: [], recorded: 0 } });
    expect(report.alerts).toMatchObject({ alerts_evaluated: 0 });
    expect(server!.unmatched).toEqual([]);
  });

  it('exits 9 with the error and what to try when the platform cannot be reached', async () => {
    await liveDataDirWithASavedChannel();
    const run = await cli.run(['engine', 'refresh'], { env: { TUBEKIT_PLATFORM_ORIGIN: await closedOrigin() } });
    expect(run.exitCode).toBe(9);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error: the video platform could not be reached (www.youtube.com: connection refused)');
    expect(run.stderr).toContain('--proxy');
    expect(run.stderr).toContain('engine platform sample');
  });

  it('keeps a live data dir that holds reads from switching back to the sample world', async () => {
    await liveDataDirWithASavedChannel();
    const refused = await cli.run(['engine', 'platform', 'sample']);
    expect(refused.exitCode).toBe(7);
    expect(refused.stderr).toContain('never mixes the live and sample platforms');
  });

  it('sweeps from a worker that stays up (engine worker --refresh-every), at once and on its schedule', async () => {
    const env = await liveDataDirWithASavedChannel();
    const worker = cli.spawn(['engine', 'worker', '--refresh-every', '60'], { env });
    let log = '';
    worker.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    try {
      await expect.poll(() => log, { timeout: 30_000, interval: 200 }).toContain('refresh sweep done');
      expect(server!.seen.some((request) => request.key.browseId === CHANNEL && request.key.params !== undefined)).toBe(true);
    } finally {
      worker.kill('SIGTERM');
      await worker;
    }
    const usage = await cli.run(['engine', 'worker', '--until-idle', '--refresh-every', '5'], { env });
    expect(usage.exitCode).toBe(2);
  });

  it('points a live data dir that asks to move the world at the refresh sweep (exit 2)', async () => {
    const env = await liveDataDirWithASavedChannel();
    const advance = await cli.run(['engine', 'world', 'advance', '1d'], { env });
    expect(advance.exitCode).toBe(2);
    expect(advance.stderr).toContain('no world to move');
    expect(advance.stderr).toContain('tubekit engine refresh');
  });

  it('refuses a sample data dir, and an interval out of range', async () => {
    const sample = await cli.run(['engine', 'refresh']);
    expect(sample.exitCode).toBe(7);
    expect(sample.stderr).toContain('engine world advance');
    const tooOften = await cli.run(['engine', 'refresh', '--every', '5m']);
    expect(tooOften.exitCode).toBe(2);
    expect(tooOften.stderr).toContain('15 minutes to 7 days');
  });
});
