/**
 * `tubekit download` on a live data dir, the built binary against a media fixture server: the file
 * saved under its served name; a download killed midway (SIGKILL, no cleanup) leaves no yt-dlp
 * or ffmpeg running, nothing under a final name, and its slot and temporary files are gone after
 * the next request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { type CliSandbox, cliSandbox } from '../support/cli.js';
import { hasYtdlp, liveWatchUrl } from '../support/live-media.js';
import { type MediaFixtureServer, startMediaFixtureServer } from '../support/media-fixture-server.js';
import { probe } from '../support/media.js';

// yt-dlp, ffmpeg and the fixture media they fetch (made on first use) take seconds each, more on a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let server: MediaFixtureServer;
let cli: CliSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startMediaFixtureServer();
  server.add({ id: 'cliLiveVid1', title: 'CLI fixture', formats: ['h264-360', 'h264-720', 'aac'], humanCaptions: true });
  server.add({ id: 'cliLiveVid2', title: 'Second fixture', formats: ['h264-360', 'aac'] });
});
afterAll(() => server?.close());
beforeEach(async () => {
  cli = cliSandbox();
  env = { TUBEKIT_PLATFORM_ORIGIN: server.origin };
  expect((await cli.run(['engine', 'platform', 'live'])).exitCode).toBe(0);
});
afterEach(() => {
  server.throttle(0);
  cli.cleanup();
});

/** Processes of this machine whose command line mentions `text`. */
function processesMentioning(text: string): string[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        return command.includes(text) ? [`${pid}: ${command}`] : [];
      } catch {
        return [];
      }
    });
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

it.skipIf(!hasYtdlp)('saves a live video under its served name, and refuses to overwrite it without --force', async () => {
  const out = path.join(cli.dataDir, '..', 'out');
  fs.mkdirSync(out);
  const first = await cli.run(['download', liveWatchUrl('cliLiveVid1'), '--quality', '360p', '-o', out], { env });
  expect(first.stderr).toMatch(/^Saved CLI fixture \(360p\)\.mp4: [\d.]+ [kM]B, 20 s of 360p video\.\n$/);
  expect(first.exitCode).toBe(0);
  const file = path.join(out, 'CLI fixture (360p).mp4');
  expect(first.stdout).toBe(`${file}\n`);
  expect((await probe(file)).streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ codec_name: 'h264', height: 360 });
  const again = await cli.run(['download', liveWatchUrl('cliLiveVid1'), '--quality', '360p', '-o', out], { env });
  expect(again.exitCode).toBe(2);
  const subtitles = await cli.run(['download', liveWatchUrl('cliLiveVid1'), '--format', 'subtitles', '-o', '-'], { env });
  expect(subtitles.exitCode).toBe(0);
  expect(subtitles.stdout).toMatch(/^1\r?\n00:00:00,000 --> 00:00:03,000\r?\nHuman caption 1/);
});

it.skipIf(!hasYtdlp)('leaves nothing running and nothing under a final name when killed midway; the next request frees its slot and temporary files', async () => {
  const key = (await cli.run(['engine', 'keys', 'create', '--plan', 'starter', '--scope', 'generations'])).stdout.trim();
  const starter = { ...env, TUBEKIT_API_KEY: key };
  // About 40 s for the 720p stream: killed long before it ends.
  server.throttle(30_000);
  const out = path.join(cli.dataDir, '..', 'out');
  fs.mkdirSync(out);
  const child = cli.spawn(['download', liveWatchUrl('cliLiveVid1'), '--quality', '720p', '-o', out], { env: starter });
  const scratch = path.join(cli.dataDir, 'scratch');
  const deadline = Date.now() + 90_000;
  while (!filesUnder(scratch).some((file) => file.endsWith('.part'))) {
    if (Date.now() > deadline) throw new Error('yt-dlp never started writing');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGKILL');
  await child;
  // The tether kills yt-dlp and the ffmpeg it runs, whose command lines name the scratch folder.
  const gone = Date.now() + 30_000;
  while (processesMentioning(scratch).length > 0 && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(processesMentioning(scratch)).toEqual([]);
  expect(filesUnder(path.join(cli.dataDir, 'cdn', 'downloads'))).toEqual([]);
  expect(fs.readdirSync(out)).toEqual([]);
  expect(filesUnder(scratch).length).toBeGreaterThan(0);

  // The Starter plan's single parallel slot is free again, and the killed fetch's files are swept.
  server.throttle(0);
  const next = await cli.run(['download', liveWatchUrl('cliLiveVid2'), '--quality', '360p', '-o', out], { env: starter });
  expect(next.stderr).toMatch(/^Saved Second fixture/);
  expect(next.exitCode).toBe(0);
  expect(filesUnder(scratch)).toEqual([]);
  expect(fs.readdirSync(out)).toEqual(['Second fixture (360p).mp4']);
});
