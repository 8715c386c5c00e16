/** `tubekit engine platform`: a data dir reads the sample world or the live site, never both. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliSandbox, cliSandbox } from '../support/cli.js';
import { closedOrigin } from '../support/platform-fixture-server.js';

let cli: CliSandbox;
beforeEach(() => {
  cli = cliSandbox();
});
afterEach(() => cli.cleanup());

describe('engine platform', () => {
  it('starts on the sample world; a fresh data dir switches to live, and status and health say so', async () => {
    expect((await cli.run(['engine', 'platform'])).stdout).toBe('sample\n');
    const switched = await cli.run(['engine', 'platform', 'live', '--json']);
    expect(switched.exitCode).toBe(0);
    expect(JSON.parse(switched.stdout)).toEqual({ platform: 'live', changed: true });
    expect((await cli.run(['engine', 'platform'])).stdout).toBe('live\n');
    // Opening the live platform makes no request: an unreachable origin does not matter here.
    const env = { TUBEKIT_PLATFORM_ORIGIN: await closedOrigin() };
    const status = JSON.parse((await cli.run(['engine', 'status', '--json'], { env })).stdout);
    expect(status.platform).toBe('live');
    expect(status).not.toHaveProperty('world_seed');
    const health = await cli.run(['health', '--json'], { env });
    expect(health.exitCode).toBe(0);
    expect(JSON.parse(health.stdout).platform).toBe('live');
    // A live download asks the live site (here: an origin where nothing listens), never the sample world.
    const download = await cli.run(['download', 'https://www.youtube.com/watch?v=GHGuclERoWA'], { env });
    expect(download.exitCode).toBe(9);
    expect(download.stderr).toMatch(/the video platform could not be reached while fetching GHGuclERoWA|need yt-dlp/);
    // Back to sample: nothing live is stored yet, so it is allowed.
    expect((await cli.run(['engine', 'platform', 'sample'])).stdout).toBe('sample (was live)\n');
  });

  it('refuses to mix: a data dir holding a sample world stays sample, with the advice to use another', async () => {
    expect((await cli.run(['engine', 'sample', 'channels', '--limit', '1'])).exitCode).toBe(0);
    const refused = await cli.run(['engine', 'platform', 'live']);
    expect(refused.exitCode).toBe(7);
    expect(refused.stderr).toContain('never mixes the sample and live platforms');
    expect(refused.stderr).toContain('--data-dir');
    expect((await cli.run(['engine', 'platform'])).stdout).toBe('sample\n');
    const unknown = await cli.run(['engine', 'platform', 'real']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('Use "sample" or "live"');
  });
});
