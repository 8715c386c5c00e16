import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { main } from '../../src/cli/main.js';
import { openEngine } from '../../src/engine/open-engine.js';
import { tempDataDir } from '../support/engines.js';
import { memoryIO } from '../support/memory-io.js';

describe('channel stats and the folder sparkline column', () => {
  const dataDir = tempDataDir();
  let channelId: string;
  let title: string;
  const run = async (args: string[], options: { terminal?: boolean } = {}) => {
    const memory = memoryIO({ terminal: options.terminal, columns: 100 });
    const code = await main(['node', 'tubekit', '--data-dir', dataDir, ...args], memory.io);
    return { code, stdout: memory.stdout(), stderr: memory.stderr() };
  };

  beforeAll(async () => {
    const engine = await openEngine({ dataDir });
    await engine.reseedWorld({ seed: 3, channels: 80, terminated: 0 });
    for await (const page of (await engine.index()).channels.scan()) {
      ({ channel_id: channelId, title } = page[2]!);
      break;
    }
    await engine.close();
    expect((await run(['folders', 'create', 'Watch'])).code).toBe(0);
    expect((await run(['saved', 'add', channelId, '--folder', '1'])).code).toBe(0);
  }, 60_000);
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('prints the history as tab-separated rows when piped: no chart, no header', async () => {
    const { code, stdout } = await run(['channel', 'stats', channelId, '--since', '10d']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d\t\d+\t\d+\t\d+$/);
    expect(stdout).not.toMatch(/[┤▁█]/);
  });

  it('draws a labelled block chart above the table on a terminal', async () => {
    const { code, stdout } = await run(['channel', 'stats', channelId, '--metric', 'views', '--since', '2w'], { terminal: true });
    expect(code).toBe(0);
    expect(stdout).toContain(`${title}`);
    expect(stdout).toContain('views, last 14 days');
    expect(stdout.split('\n').filter((line) => line.includes('┤'))).toHaveLength(8);
    expect(stdout).toMatch(/DATE\s+SUBSCRIBERS\s+VIEWS\s+VIDEOS/);
  });

  it('prints exactly the API body with --json', async () => {
    const { stdout } = await run(['channel', 'stats', channelId, '--since', '7', '--json']);
    const body = JSON.parse(stdout);
    expect(body).toMatchObject({ success: true, channel_id: channelId, days: 7 });
    expect(body.points).toHaveLength(7);
  });

  it('refuses a --since outside 1 to 365 days with exit 2', async () => {
    for (const since of ['0d', '400d', 'soon']) {
      const { code, stderr } = await run(['channel', 'stats', channelId, '--since', since]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/--since must be a number of days/);
    }
  });

  it('adds a sparkline column to folders channels on a terminal only, never when piped or in --json', async () => {
    const terminal = await run(['folders', 'channels', '1'], { terminal: true });
    expect(terminal.stdout).toMatch(/SUBS 14D/);
    expect(terminal.stdout).toMatch(/[▁▂▃▄▅▆▇█]{5,}/);
    const piped = await run(['folders', 'channels', '1']);
    expect(piped.stdout).not.toMatch(/[▁▂▃▄▅▆▇█]/);
    expect(piped.stdout.trimEnd().split('\t')).toHaveLength(9);
    const json = await run(['folders', 'channels', '1', '--json']);
    expect(json.stdout).not.toMatch(/[▁▂▃▄▅▆▇█]/);
  });
});
