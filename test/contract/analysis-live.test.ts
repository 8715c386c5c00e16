/**
 * Video analysis on a live data dir, on both engines, the site played by the platform fixture
 * server: the submit resolves the real video and queues the job; without a vision model the job
 * fails saying how to configure one; with one, it fails with not_implemented_on_live until the
 * yt-dlp fetcher is connected to analysis — never with sample data, and nothing reaches the model.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { TaskJob } from '../../src/core/schemas/jobs.js';
import type { Service } from '../../src/core/service.js';
import { describeEachEngine } from '../support/engines.js';
import { startFixtureServer, type FixtureServer } from '../support/platform-fixture-server.js';
import { startVisionFixture, type VisionFixture } from '../support/vision-fixture-server.js';

const env: NodeJS.ProcessEnv = {};
let site: FixtureServer;
let model: VisionFixture;

beforeAll(async () => {
  site = await startFixtureServer([
    { method: 'POST', path: '/youtubei/v1/player', key: { videoId: 'fixVideo001' }, file: 'player-captions.json' },
    { method: 'POST', path: '/youtubei/v1/next', key: { videoId: 'fixVideo001' }, file: 'next-solo.json' },
  ]);
  model = await startVisionFixture();
  vi.stubEnv('TUBEKIT_PLATFORM_ORIGIN', site.origin);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await site.close();
  await model.close();
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
  beforeAll(() => {
    get().engine.settings.set('platform', 'live');
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

  it('with a vision model configured, fails with not_implemented_on_live naming the missing video fetch, and sends the model nothing', async () => {
    Object.assign(env, { TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: model.chatBaseUrl, TUBEKIT_ANALYSIS_MODEL: 'm' });
    const service = get().as('starter');
    const job = await finished(service, (await service.call('analysis.submit', { video_url: VIDEO_URL, prompt: 'Summarize it.', media_resolution: 'default' })).job_id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^Video analysis on the live platform is not available yet \(not_implemented_on_live\): .*fetching the video fixVideo001 at 720p with yt-dlp is not connected/);
    expect(job).not.toHaveProperty('analysis_text');
    expect(model.raw).toEqual([]);
  });
}, { analysisSettings: { env } });
