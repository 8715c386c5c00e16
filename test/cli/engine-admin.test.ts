import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

describe('tubekit engine administration (built binary)', () => {
  let cli: CliSandbox;
  beforeAll(() => {
    cli = cliSandbox();
  });
  afterAll(() => cli.cleanup());

  it('lists keys by prefix only, and a revoked key stops working', async () => {
    const { key } = JSON.parse((await cli.run(['engine', 'keys', 'create', '--plan', 'starter', '--json'])).stdout);
    const listed = await cli.run(['engine', 'keys', 'list', '--json']);
    expect(listed.stdout).not.toContain(key);
    const entries = JSON.parse(listed.stdout).keys as { prefix: string; plan: string; revoked: boolean; default: boolean }[];
    expect(entries.some((entry) => entry.default && entry.plan === 'ultimate')).toBe(true);
    const mine = entries.find((entry) => key.startsWith(entry.prefix))!;
    expect(mine).toMatchObject({ plan: 'starter', revoked: false });
    expect((await cli.run(['folders', 'list'], { env: { TUBEKIT_API_KEY: key } })).exitCode).toBe(0);
    expect((await cli.run(['engine', 'keys', 'revoke', mine.prefix])).exitCode).toBe(0);
    expect((await cli.run(['folders', 'list'], { env: { TUBEKIT_API_KEY: key } })).exitCode).toBe(4);
    expect((await cli.run(['engine', 'keys', 'create', '--plan', 'gold'])).exitCode).toBe(2);
  });

  it('overrides a plan limit for this engine, and resets it', async () => {
    const { key } = JSON.parse((await cli.run(['engine', 'keys', 'create', '--plan', 'starter', '--json'])).stdout);
    const env = { TUBEKIT_API_KEY: key };
    expect((await cli.run(['engine', 'limits', 'set', 'starter', 'folders', '1'])).exitCode).toBe(0);
    expect((await cli.run(['folders', 'create', 'One'], { env })).exitCode).toBe(0);
    const refused = await cli.run(['folders', 'create', 'Two'], { env });
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr).toMatch(/folder limit \(1 on your plan\)/);
    const table = JSON.parse((await cli.run(['engine', 'limits', 'list', '--json'])).stdout);
    expect(table.starter.folders).toBe(1);
    expect(table.professional.folders).toBe(50);
    expect((await cli.run(['engine', 'limits', 'set', 'starter', 'folders', 'lots'])).exitCode).toBe(2);
    expect((await cli.run(['engine', 'limits', 'set', 'starter', 'nonsense', '1'])).exitCode).toBe(2);
    await cli.run(['engine', 'limits', 'reset']);
    expect((await cli.run(['folders', 'create', 'Two'], { env })).exitCode).toBe(0);
  });

  it('rebuilds the sample world from a seed and size, deterministically', async () => {
    const first = JSON.parse((await cli.run(['engine', 'seed', '--channels', '200', '--seed', '42', '--json'])).stdout);
    expect(first).toMatchObject({ channel_count: 200, seed: '42' });
    const channels = (await cli.run(['engine', 'sample', 'channels', '--limit', '3', '--json'])).stdout;
    await cli.run(['engine', 'seed', '--channels', '200', '--seed', '7']);
    expect((await cli.run(['engine', 'sample', 'channels', '--limit', '3', '--json'])).stdout).not.toBe(channels);
    await cli.run(['engine', 'seed', '--channels', '200', '--seed', '42']);
    expect((await cli.run(['engine', 'sample', 'channels', '--limit', '3', '--json'])).stdout).toBe(channels);
    const status = JSON.parse((await cli.run(['engine', 'status', '--json'])).stdout);
    expect(status).toMatchObject({ world: 'sample', world_channels: 200, data_dir: cli.dataDir, workers: [] });
  });

  it('pins the world to a reference date (--reference-date, else TUBEKIT_WORLD_DATE, else today)', async () => {
    const seed = ['engine', 'seed', '--channels', '100', '--json'];
    const dated = await cli.run([...seed, '--reference-date', '2024-02-29']);
    expect(JSON.parse(dated.stdout)).toMatchObject({ reference_date: '2024-02-29', channel_count: 100 });
    // The date is one of the world's parameters: the data dir keeps it whatever the variable says.
    const status = await cli.run(['engine', 'status', '--json'], { env: { TUBEKIT_WORLD_DATE: '2025-05-05' } });
    expect(JSON.parse(status.stdout)).toMatchObject({ world_reference_date: '2024-02-29' });
    expect(JSON.parse((await cli.run(seed, { env: { TUBEKIT_WORLD_DATE: '2025-05-05' } })).stdout)).toMatchObject({ reference_date: '2025-05-05' });
    // Users without the variable get a world of today, as before.
    const before = new Date().toISOString().slice(0, 10);
    const today = JSON.parse((await cli.run(seed, { env: { TUBEKIT_WORLD_DATE: '' } })).stdout).reference_date;
    expect([before, new Date().toISOString().slice(0, 10)]).toContain(today);

    const refused = await cli.run(['engine', 'seed', '--channels', '100', '--reference-date', '2024-02-30']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/--reference-date: "2024-02-30" is not a date/);
    const badVariable = await cli.run(['engine', 'seed', '--channels', '100'], { env: { TUBEKIT_WORLD_DATE: 'tomorrow' } });
    expect(badVariable.stderr).toMatch(/TUBEKIT_WORLD_DATE: "tomorrow"/);
    expect(badVariable.exitCode).toBe(2);
    // Neither refusal touched the world.
    expect(JSON.parse((await cli.run(['engine', 'status', '--json'])).stdout)).toMatchObject({ world_reference_date: today });
  });

  it('lists sample videos to try, of every kind, and one channel\'s videos', async () => {
    const { videos } = JSON.parse((await cli.run(['engine', 'sample', 'videos', '--limit', '20', '--json'])).stdout);
    expect(videos).toHaveLength(20);
    for (const video of videos) {
      expect(Object.keys(video)).toEqual(expect.arrayContaining(['video_id', 'channel_id', 'title', 'duration_seconds', 'kind', 'url']));
      expect(video.video_id).toMatch(/^[A-Za-z0-9_-]{11}$/);
    }
    expect(new Set(videos.map((video: { kind: string }) => video.kind))).toEqual(new Set(['long', 'short']));
    expect(new Set(videos.map((video: { captions: string | null }) => video.captions))).toEqual(new Set(['human', 'auto', null]));
    const piped = await cli.run(['engine', 'sample', 'videos', '--limit', '2']);
    expect(piped.stdout.trim().split('\n')).toHaveLength(2);
    const owner = videos[0].channel_id as string;
    const own = JSON.parse((await cli.run(['engine', 'sample', 'videos', '--channel', owner, '--json'])).stdout).videos;
    expect(own.length).toBeGreaterThan(0);
    // Listed under the channel: its own videos, and collabs another channel hosts with it.
    for (const video of own) expect(video.channel_id === owner || video.collaborators.includes(owner)).toBe(true);
    expect((await cli.run(['engine', 'sample', 'videos', '--channel', 'not a channel'])).exitCode).toBe(2);
    expect((await cli.run(['engine', 'sample', 'videos', '--channel', '@nobodyhasthishandle'])).exitCode).toBe(6);
  });

  it('sets and clears the CDN base URL, refusing anything but http(s)', async () => {
    expect((await cli.run(['engine', 'cdn-url', 'https://cdn.example.com/'])).stdout.trim()).toBe('https://cdn.example.com');
    expect(JSON.parse((await cli.run(['engine', 'cdn-url', '--json'])).stdout)).toEqual({ cdn_base_url: 'https://cdn.example.com' });
    expect((await cli.run(['engine', 'cdn-url', 'ftp://x'])).exitCode).toBe(2);
    await cli.run(['engine', 'cdn-url', '--clear']);
    expect(JSON.parse((await cli.run(['engine', 'cdn-url', '--json'])).stdout)).toEqual({ cdn_base_url: null });
  });
});
