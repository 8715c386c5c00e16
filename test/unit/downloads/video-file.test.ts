/**
 * fetchVideoFile: the video at a height as a file for the engine's own use (video analysis), from
 * the live platform's media source or rendered on the sample world — no cap counted, nothing cached.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { fetchVideoFile } from '../../../src/engine/features/downloads/video-file.js';
import { tempDataDir } from '../../support/engines.js';
import { hasYtdlp } from '../../support/live-media.js';
import { type MediaFixtureServer, startMediaFixtureServer } from '../../support/media-fixture-server.js';
import { pickVideos, probe } from '../../support/media.js';

// yt-dlp, ffmpeg and the fixture media they fetch (made on first use) take seconds each, more on a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let server: MediaFixtureServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startMediaFixtureServer();
  server.add({ id: 'visionVid01', title: 'For analysis', formats: ['h264-360', 'h264-720', 'aac'] });
});
afterAll(() => server?.close());
afterEach(() => {
  vi.unstubAllEnvs();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function open(): { engine: Engine; dir: string } {
  const dataDir = tempDataDir();
  const dir = tempDataDir('tubekit-video-file-');
  dirs.push(dataDir, dir);
  return { engine: Engine.open({ dataDir, jobRunner: { mode: 'none' } }), dir };
}

it.skipIf(!hasYtdlp)('fetches a live video at the height asked (a section of it too) into the caller’s folder, counting nothing', async () => {
  vi.stubEnv('TUBEKIT_PLATFORM_ORIGIN', server.origin);
  const { engine, dir } = open();
  await engine.localSettings.set('platform', 'live');
  const low = await fetchVideoFile(engine, 'visionVid01', { height: 360, section: { start: 2, duration: 6 }, dir });
  expect(low).toMatchObject({ file: path.join(dir, 'video.mp4'), height: 360, title: 'For analysis' });
  expect(Math.abs(low.duration_seconds - 6)).toBeLessThanOrEqual(0.5);
  expect((await probe(low.file)).streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ codec_name: 'h264', height: 360 });
  expect(fs.readdirSync(dir)).toEqual(['video.mp4']);
  expect(engine.db.prepare('SELECT COUNT(*) AS n FROM download_files').get()).toEqual({ n: 0 });
  await engine.close();
});

it('renders a sample-world video at the height asked', async () => {
  const { engine, dir } = open();
  const { human } = await pickVideos(engine);
  const file = await fetchVideoFile(engine, human.video_id, { height: 360, section: { start: 30, duration: 5 }, dir });
  expect(file).toMatchObject({ height: 360, title: human.title });
  expect(Math.abs(file.duration_seconds - 5)).toBeLessThanOrEqual(0.5);
  await engine.close();
});
