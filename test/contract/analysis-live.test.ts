/**
 * Video analysis on a live data dir, on both engines, the site played by the platform fixture
 * server: the submit resolves the real video and queues the job; without a vision model the job
 * fails saying how to configure one; with one, the real video is fetched with yt-dlp and ffmpeg
 * (the site's media played by the media fixture server) and the model sees its frames — never
 * sample data.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { TaskJob } from '../../src/core/schemas/jobs.js';
import type { Service } from '../../src/core/service.js';
import { describeEachEngine } from '../support/engines.js';
import { hasYtdlp } from '../support/live-media.js';
import { startMediaFixtureServer, type MediaFixtureServer } from '../support/media-fixture-server.js';
import { startFixtureServer, type FixtureServer } from '../support/platform-fixture-server.js';
import { startVisionFixture, type VisionFixture } from '../support/vision-fixture-server.js';

const env: NodeJS.ProcessEnv = {};
let site: FixtureServer;
let model: VisionFixture;
let media: MediaFixtureServer;

// yt-dlp, ffmpeg and the fixture media they fetch (made on first use) take seconds each, more on a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

beforeAll(async () => {
  // The site's pages and the video's yt-dlp metadata share one origin; the metadata's streams are the media server's.
  media = await startMediaFixtureServer();
  media.add({ id: 'fixVideo001', title: 'Ten-minute dumplings', formats: ['h264-360', 'h264-720', 'aac'], humanCaptions: true });
  const info = await (await fetch(`${media.origin}/ytdlp/fixVideo001.info.json`)).text();
  site = await startFixtureServer([
    { method: 'POST', path: '/youtubei/v1/player', key: { videoId: 'fixVideo001' }, file: 'player-captions.json' },
    { method: 'POST', path: '/youtubei/v1/next', key: { videoId: 'fixVideo001' }, file: 'next-solo.json' },
    { method: 'GET', path: '/ytdlp/fixVideo001.info.json', key: {}, body: info, headers: { 'content-type': 'application/json' } },
    // The video's channel and captions, which the model is told about.
    { method: 'POST', path: '/youtubei/v1/browse', key: { browseId: 'UCtubekitFixtureChannel1' }, file: 'channel-home.json' },
    { method: 'POST', path: '/youtubei/v1/browse', key: { continuation: 'fixture-about-token' }, file: 'channel-about.json' },
    { method: 'GET', path: '/api/timedtext', key: { v: 'fixVideo001', lang: 'en', fmt: 'json3' }, file: 'timedtext-human.json3' },
  ]);
  model = await startVisionFixture();
  vi.stubEnv('TUBEKIT_PLATFORM_ORIGIN', site.origin);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await site.close();
  await model.close();
  await media.close();
});

async function finished(service: Service, jobId: string): Promise<TaskJob> {
  for (let round = 0; round < 20; round++) {
    const job = await service.call('jobs.status', { job_id: jobId, wait_seconds: 10 });
    if (job.status === 'completed' || job.status === 'failed') return job;
  }
  throw new Error(`job ${jobId} did not finish`);
}

const VIDEO_URL = 'https://www.youtube.com/watch?v=fixVideo001';

describeEachEngine('video analysis on the live platform', (get) => {
  beforeAll(async () => {
    // The data dir's own setting: on a fleet store the shared settings are another table.
    await get().engine.localSettings.set('platform', 'live');
  });

  it('queues the job, which fails saying how to configure a vision model when none is', async () => {
    for (const name of Object.keys(env)) delete env[name];
    const service = get().as('starter');
    const submitted = await service.call('analysis.submit', { video_url: VIDEO_URL, prompt: 'Summarize it.' });
    expect(submitted).toMatchObject({ success: true, status: 'pending', cached: false, duration_seconds: 754 });
    const job = await finished(service, submitted.job_id);
    expect(job).toMatchObject({ status: 'failed', video_id: 'fixVideo001', title: 'Ten-minute dumplings' });
    expect(job.error).toMatch(/^Video analysis on the live platform needs a vision model, and none is configured where the engine runs\. Configure a vision model where the engine runs: `tubekit config set analysis\.provider openai-compatible`.*TUBEKIT_ANALYSIS_PROVIDER/);
    expect(site.unmatched).toEqual([]);
  });

  (hasYtdlp ? it : it.skip)('with a vision model configured, fetches the real video with yt-dlp and shows the model its frames', async () => {
    Object.assign(env, { TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: model.chatBaseUrl, TUBEKIT_ANALYSIS_MODEL: 'm' });
    model.answerChat = (chat) => `Seen ${chat.images.length} frames.`;
    const service = get().as('starter');
    const fetched = media.mediaRequests().length;
    const job = await finished(service, (await service.call('analysis.submit', { video_url: VIDEO_URL, prompt: 'Summarize it.', media_resolution: 'low' })).job_id);
    expect(job).toMatchObject({ status: 'completed', video_id: 'fixVideo001' });
    const chat = model.chats.at(-1)!;
    expect(chat.images.length).toBeGreaterThan(0);
    expect(job.analysis_text).toBe(`Seen ${chat.images.length} frames.`);
    // Low resolution fetched the 360p stream, and nothing of the sample world was rendered.
    expect(media.mediaRequests().length).toBeGreaterThan(fetched);
    expect(media.mediaRequests().some((request) => request.path.includes('720'))).toBe(false);
    expect(model.violations).toEqual([]);
    expect(site.unmatched).toEqual([]);
  });
}, { analysisSettings: { env }, postgres: true });
