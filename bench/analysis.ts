/**
 * Video analysis: how long a 10-minute video takes to reach a chat model, at both resolutions —
 * from the submit to the request arriving at a model API on 127.0.0.1 (the sample world's render
 * of the picture, frame sampling, the request's JSON) — beside the render alone, measured side by
 * side; and the frame sampling alone on a ready file (what a yt-dlp download would be followed by).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Engine } from '../src/engine/engine.js';
import { MEDIA_PLANS, type MediaResolution } from '../src/engine/features/analysis/providers/media-plan.js';
import { runFfmpeg } from '../src/engine/media/ffmpeg.js';
import { sampleFrames } from '../src/engine/media/frames.js';
import { PICTURES_PER_SECOND } from '../src/engine/media/picture.js';
import { renderMp4, type RenderSubject } from '../src/engine/media/render.js';
import { LocalService } from '../src/engine/local-service.js';
import { setWorkSetting } from '../src/engine/simulated-work.js';
import { benchWorld } from './sample-world.js';
import { median, timeMedian, type BenchRow } from './table.js';

const RUNS = 3;

/** A chat-completions API that notes when each request has arrived whole, and answers at once. */
async function startReceiver(): Promise<{ url: string; arrivals: number[]; close(): Promise<void> }> {
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(performance.now());
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function analysisRows(): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-analysis-'));
  const receiver = await startReceiver();
  const env = { TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: receiver.url, TUBEKIT_ANALYSIS_MODEL: 'bench' };
  const engine = Engine.open({ dataDir, analysisSettings: { env } });
  try {
    setWorkSetting(engine.settings, { preset: 'instant' });
    const world = await benchWorld(engine);
    const video = tenMinuteVideo(world);
    const channel = world.channelById(video.channel_id)!;
    const subject: RenderSubject = {
      videoId: video.video_id,
      channelId: video.channel_id,
      title: video.title,
      channelTitle: channel.title,
      portrait: false,
      transcript: world.transcript(video.video_id),
      section: { start: 0, duration: video.duration_seconds },
    };
    const minutes = (video.duration_seconds / 60).toFixed(1);
    const rows: BenchRow[] = [];
    for (const resolution of ['low', 'default'] as MediaResolution[]) {
      const plan = MEDIA_PLANS[resolution];
      const label = `${resolution} (${plan.height}p, ${plan.maxFrames} frames)`;
      const workDir = fs.mkdtempSync(path.join(dataDir, 'render-'));
      const file = path.join(workDir, 'video.mp4');
      const render = await timeMedian(RUNS, () => renderMp4(subject, plan.height, file, { workDir }, { sound: false }));
      const toModel: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        // A new user each run: nothing comes from the 2-hour cache.
        const service = new LocalService(engine, (await engine.identity.createUserWithKey('ultimate', [])).key);
        const before = receiver.arrivals.length;
        const started = performance.now();
        await service.call('analysis.submit', { video_url: video.url, prompt: 'Summarize the video.', media_resolution: resolution });
        while (receiver.arrivals.length === before) await new Promise((resolve) => setTimeout(resolve, 5));
        toModel.push(receiver.arrivals[before]! - started);
      }
      rows.push({
        name: `analysis: ${minutes}-minute video to the request leaving for the model, ${label}`,
        value: median(toModel),
        unit: 'ms',
        baseline: { name: `rendering its picture at ${plan.height}p`, value: render },
        budget: '≤ 3×',
      });
      const framesDir = fs.mkdtempSync(path.join(dataDir, 'frames-'));
      const sampling = await timeMedian(RUNS, () => sampleFrames(file, video.duration_seconds, plan, framesDir, undefined, { picturesPerSecond: PICTURES_PER_SECOND }));
      const seeking = await timeMedian(RUNS, () => sampleFrames(file, video.duration_seconds, plan, framesDir));
      const decode = await timeMedian(RUNS, () => runFfmpeg(['-threads', '1', '-i', file, '-f', 'null', '-']));
      // The sample world's files (a picture a second) are decoded once; any other file is read by
      // seeking, which costs by the frame, not by the minute (shown here on the same file).
      rows.push({
        name: `analysis: frame sampling alone, ${minutes}-minute ${plan.height}p file (1 picture a second), ${plan.maxFrames} frames`,
        value: sampling,
        unit: 'ms',
        baseline: { name: 'decoding the whole file', value: decode },
        // Decoding plus scaling and encoding the frames.
        budget: '≤ 3×',
      });
      rows.push({
        name: `analysis: the same by seeking to each frame (the method for files of many pictures a second)`,
        value: seeking,
        unit: 'ms',
        baseline: { name: 'decoding the whole file', value: decode },
        budget: 'bounded by the frame count, not the length',
      });
    }
    return rows;
  } finally {
    engine.close();
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The long video with a transcript whose length is nearest to 10 minutes. */
function tenMinuteVideo(world: Awaited<ReturnType<typeof benchWorld>>) {
  let best: { url: string; video_id: string; channel_id: string; title: string; duration_seconds: number } | undefined;
  for (const video of world.sampleVideos(2000)) {
    if (video.kind !== 'long' || video.captions === null) continue;
    if (!best || Math.abs(video.duration_seconds - 600) < Math.abs(best.duration_seconds - 600)) best = video;
    if (best.duration_seconds === 600) break;
  }
  if (!best) throw new Error('no long video with a transcript in the bench world');
  return best;
}
