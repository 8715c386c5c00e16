/**
 * Live downloads (yt-dlp and ffmpeg against a media fixture server on 127.0.0.1, as the tests run
 * them): a 10-minute 720p video and a 1-minute section of it, per minute of media, beside the
 * sample world's render of the same length in the same run; and the CLI's peak memory fetching the
 * whole video against fetching the section (flat: the file never passes through tubekit's memory).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { Service } from '../src/core/service.js';
import { Engine } from '../src/engine/engine.js';
import { LocalService } from '../src/engine/local-service.js';
import { startMediaFixtureServer } from '../test/support/media-fixture-server.js';
import { benchWorld } from './sample-world.js';
import type { BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');
const MINUTES = 10;
const VIDEO_ID = 'benchLive01';

const UNLIMITED = { ultimate: { downloadsPerHour: null, parallelDownloads: 100 } };

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

export async function liveDownloadRows(): Promise<BenchRow[]> {
  const server = await startMediaFixtureServer({ seconds: MINUTES * 60, stock: ['h264-360', 'h264-720', 'aac'] });
  server.add({ id: VIDEO_ID, title: 'Bench live video', formats: ['h264-360', 'h264-720', 'aac'] });
  const previousOrigin = process.env.TUBEKIT_PLATFORM_ORIGIN;
  process.env.TUBEKIT_PLATFORM_ORIGIN = server.origin;
  const liveDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-live-'));
  const sampleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-sample-'));
  const live = Engine.open({ dataDir: liveDir, planOverrides: UNLIMITED });
  await live.localSettings.set('platform', 'live');
  const sample = Engine.open({ dataDir: sampleDir, planOverrides: UNLIMITED });
  const liveService = new LocalService(live, (await live.identity.createUserWithKey('ultimate', ['generations'])).key);
  const sampleService = new LocalService(sample, (await sample.identity.createUserWithKey('ultimate', ['generations'])).key);
  try {
    const sampleVideo = await longSampleVideo(sample);
    // Warm-ups: yt-dlp's and ffmpeg's start, the speech synthesizer, the page cache.
    await liveService.call('download', { video_url: `https://youtu.be/${VIDEO_ID}`, quality: '360p', start: 0, end: 5 });
    await sampleService.call('download', { video_url: `https://youtu.be/${sampleVideo}`, quality: '720p', start: 0, end: 5 });
    const rows: BenchRow[] = [];
    for (const [label, start, end] of [
      [`${MINUTES}-minute 720p video`, null, null],
      ['1-minute section of 720p', 120, 180],
    ] as const) {
      const minutes = start === null ? MINUTES : (end! - start) / 60;
      const liveRun = await timed(() => fetchOnce(liveService, VIDEO_ID, start, end));
      // The sample world renders the same length (its own video, at least as long).
      const sampleRun = await timed(() => fetchOnce(sampleService, sampleVideo, start ?? 1, end ?? 1 + MINUTES * 60));
      rows.push({
        name: `live download: ${label}, per minute of media (${(liveRun.value / 1e6).toFixed(1)} MB)`,
        value: liveRun.ms / minutes,
        unit: 'ms',
        baseline: { name: 'sample render, same length', value: sampleRun.ms / minutes },
        budget: 'about the sample render or less',
      });
    }
    rows.push(await cliMemory(liveDir, live));
    return rows;
  } finally {
    await liveService.close();
    await sampleService.close();
    live.close();
    sample.close();
    await server.close();
    if (previousOrigin === undefined) delete process.env.TUBEKIT_PLATFORM_ORIGIN;
    else process.env.TUBEKIT_PLATFORM_ORIGIN = previousOrigin;
    fs.rmSync(liveDir, { recursive: true, force: true });
    fs.rmSync(sampleDir, { recursive: true, force: true });
  }
}

async function fetchOnce(service: Service, videoId: string, start: number | null, end: number | null): Promise<number> {
  const answer = await service.call('download', { video_url: `https://youtu.be/${videoId}`, quality: '720p', ...(start === null ? {} : { start, end: end! }) });
  if (answer.cached) throw new Error('a bench download came from the cache');
  return answer.size_bytes;
}

async function longSampleVideo(engine: Engine): Promise<string> {
  const world = await benchWorld(engine);
  for (const channel of world.sampleChannels(world.channelCount())) {
    for (const video of world.channelVideos(channel, { kind: 'long' })) {
      if (video.duration_seconds >= MINUTES * 60 + 60 && world.transcript(video.video_id)) return video.video_id;
    }
  }
  throw new Error('no sample video long enough');
}

/**
 * Peak memory of `tubekit download` in local mode on the live data dir (the engine in the CLI's
 * process, yt-dlp and ffmpeg as children) fetching the whole 10-minute video at 360p, against
 * fetching a 10-second section of it: flat when the media stay in files and pipes.
 */
async function cliMemory(dataDir: string, engine: Engine): Promise<BenchRow> {
  const key = (await engine.identity.createUserWithKey('ultimate', ['generations'])).key;
  // 360p: a quality the rows above did not fetch, so nothing comes from the cache.
  const peak = async (range: string[]): Promise<{ mb: number; bytes: number }> => {
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-live-save-'));
    try {
      const report = "process.on('exit',()=>process.stderr.write('\\nmaxrss='+process.resourceUsage().maxRSS+'\\n'))";
      const run = await execa('node', ['--import', `data:text/javascript,${encodeURIComponent(report)}`, BIN, 'download', `https://youtu.be/${VIDEO_ID}`, '--quality', '360p', ...range, '-o', target], {
        env: { ...process.env, TUBEKIT_DATA_DIR: dataDir, TUBEKIT_API_KEY: key, TUBEKIT_CONFIG_DIR: target, TUBEKIT_BASE_URL: '' },
      });
      const [saved] = fs.readdirSync(target).filter((name) => name.endsWith('.mp4'));
      return { mb: Number(/maxrss=(\d+)/.exec(run.stderr)![1]) / 1024, bytes: fs.statSync(path.join(target, saved!)).size };
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  };
  const small = await peak(['--start', '300', '--end', '310']);
  const large = await peak([]);
  return {
    name: `live download: CLI peak memory fetching ${(large.bytes / 1e6).toFixed(0)} MB (local mode)`,
    value: large.mb,
    unit: 'MB',
    baseline: { name: `fetching ${(small.bytes / 1e6).toFixed(1)} MB`, value: small.mb },
    budget: '≤ 1.5× (flat)',
  };
}
