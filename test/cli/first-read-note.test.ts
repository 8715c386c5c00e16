/**
 * `folders channels` on a live data dir, on a terminal: a channel first read less than a day ago has
 * no 24h/48h figures yet, and one stderr note says why (never on a pipe, never in --json).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { tempDataDir } from '../support/engines.js';
import { siteId } from '../support/live-channels.js';
import { LiveSite } from '../support/live-site.js';
import { memoryIO } from '../support/memory-io.js';
import { startFixtureServer, type FixtureServer } from '../support/platform-fixture-server.js';

const CHANNEL = siteId('cliFirstRead');

describe('the first-read note of folders channels', () => {
  const dataDir = tempDataDir();
  let server: FixtureServer;
  let env: NodeJS.ProcessEnv;
  const run = async (args: string[], terminal = false) => {
    const memory = memoryIO({ terminal, columns: 160, env });
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const code = await main(['node', 'tubekit', '--data-dir', dataDir, ...args], memory.io);
      return { code, stdout: memory.stdout(), stderr: memory.stderr() };
    } finally {
      for (const key of Object.keys(env)) if (saved[key] === undefined) delete process.env[key];
    }
  };

  beforeAll(async () => {
    const site = new LiveSite(Date.now);
    site.add({ id: CHANNEL, handle: '@clifirstread', title: 'First Read', subscribers: 4_321, views: 98_765, videoCount: 3, joined: '2020-01-01', uploads: [] });
    server = await startFixtureServer(site.exchanges());
    env = { TUBEKIT_PLATFORM_ORIGIN: server.origin, TUBEKIT_PLATFORM_RATE: '100' };
    expect((await run(['engine', 'platform', 'live'])).code).toBe(0);
    expect((await run(['folders', 'create', 'Watched'])).code).toBe(0);
    const saved = await run(['saved', 'add', CHANNEL, '--folder', '1']);
    expect(saved.code, saved.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says on a terminal when the 24h/48h figures start', async () => {
    const { code, stdout, stderr } = await run(['folders', 'channels', '1'], true);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('First Read');
    expect(stderr).toMatch(/^24h\/48h figures start 24 h after the first read \(watched since (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC\)\.\n$/);
  });

  it('says nothing on a pipe or with --json', async () => {
    expect((await run(['folders', 'channels', '1'])).stderr).toBe('');
    expect((await run(['folders', 'channels', '1', '--json'], true)).stderr).toBe('');
  });
});
