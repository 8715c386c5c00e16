/**
 * `POST /api/analyze-video` and its jobs on `/api/job-status/:job_id`, on both engines: the job's
 * states, the free preview (plan none may use it; a key is still needed), the per-user upload
 * cache, the concurrency cap, answers drawn from the video's own content, and failures.
 */
import { beforeAll, expect, it } from 'vitest';
import type { TaskJob } from '../../src/core/schemas/jobs.js';
import type { Service } from '../../src/core/service.js';
import type { Clock } from '../../src/engine/clock.js';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { setWorkDuration, setWorkSetting } from '../../src/engine/simulated-work.js';
import type { SampleVideo } from '../../src/engine/platform/sample/index.js';
import { describeEachEngine, failure } from '../support/engines.js';

/** Real time, moved forward on demand: jobs still run while a test skips hours. */
class SkippingClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}
const clock = new SkippingClock();

async function finished(service: Service, jobId: string): Promise<TaskJob> {
  for (let round = 0; round < 20; round++) {
    const job = await service.call('jobs.status', { job_id: jobId, wait_seconds: 10 });
    if (job.status === 'completed' || job.status === 'failed') return job;
  }
  throw new Error(`job ${jobId} did not finish`);
}

const elapsed = (job: TaskJob) => Date.parse(job.completed_at!) - Date.parse(job.started_at!);

describeEachEngine(
  'video analysis',
  (get) => {
    let spoken: SampleVideo;
    let short: SampleVideo;
    let music: SampleVideo;
    beforeAll(async () => {
      // Instant work unless a test needs the steps to take time.
      await setWorkSetting(get().engine.settings, { preset: 'instant' });
      const videos = (await get().engine.platform()).sampleVideos(30);
      spoken = videos.find((video) => video.kind === 'long' && video.captions === 'human')!;
      short = videos.find((video) => video.kind === 'short' && video.captions !== null)!;
      music = videos.find((video) => video.captions === null)!;
    });

    it('answers at once with a pending free job, which completes with the analysis text', async () => {
      const service = get().as('professional');
      const submitted = await service.call('analysis.submit', { video_url: spoken.url, prompt: 'Summarize this video.' });
      expect(submitted).toEqual({
        success: true,
        job_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        status: 'pending',
        cached: false,
        credits_charged: 0,
        duration_seconds: spoken.duration_seconds,
      });
      const job = await finished(service, submitted.job_id);
      expect(job).toMatchObject({
        success: true,
        job_id: submitted.job_id,
        type: 'analysis',
        status: 'completed',
        title: spoken.title,
        video_url: spoken.url,
        video_id: spoken.video_id,
        media_resolution: 'low',
        cached: false,
      });
      expect(job.analysis_text).toMatch(/^\[Sample world\]/);
      expect(job.analysis_text).toContain(spoken.title);
      expect(job.completed_at).toBeDefined();
    });

    it('is free during preview: a key without a plan may analyse and poll, but nothing else', async () => {
      const none = get().as('none');
      const submitted = await none.call('analysis.submit', { video_url: short.url, prompt: 'What happens in it?' });
      expect((await finished(none, submitted.job_id)).status).toBe('completed');
      expect((await failure(none.call('folders.list', {}))).status).toBe(403);
      expect((await failure(none.call('terminated.search', { q: 'cooking' }))).status).toBe(403);
      const anonymous = await failure(get().withKey(undefined).call('analysis.submit', { video_url: short.url, prompt: 'Hi' }));
      expect(anonymous.status).toBe(401);
      const wrongKey = await failure(get().withKey('tk_not_a_key').call('analysis.submit', { video_url: short.url, prompt: 'Hi' }));
      expect(wrongKey.status).toBe(401);
    });

    it('reuses the caller\'s upload of a video for 2 hours, skipping the upload step; other users upload their own', async () => {
      // The upload a second, the analysis a second: a second apart, told apart on a loaded machine.
      await setWorkDuration(get().engine.settings, { min_ms: 1_000, max_ms: 1_000 });
      try {
        const service = get().as('starter');
        const first = await service.call('analysis.submit', { video_url: spoken.url, prompt: 'List the topics.' });
        expect(first.cached).toBe(false);
        const uploaded = await finished(service, first.job_id);
        const again = await service.call('analysis.submit', { video_url: `https://youtu.be/${spoken.video_id}`, prompt: 'Summarize it.' });
        expect(again.cached).toBe(true);
        const reused = await finished(service, again.job_id);
        expect(reused).toMatchObject({ status: 'completed', cached: true });
        expect(elapsed(uploaded)).toBeGreaterThanOrEqual(2_000);
        expect(elapsed(reused)).toBeGreaterThanOrEqual(1_000);
        expect(elapsed(reused)).toBeLessThan(2_000);

        const other = get().as('starter');
        expect((await other.call('analysis.submit', { video_url: spoken.url, prompt: 'Summarize it.' })).cached).toBe(false);

        clock.offset += 2 * 60 * 60 * 1000 + 1000;
        const later = await service.call('analysis.submit', { video_url: spoken.url, prompt: 'Summarize it.' });
        expect(later.cached).toBe(false);
        await finished(service, later.job_id);
      } finally {
        await setWorkSetting(get().engine.settings, { preset: 'instant' });
      }
    });

    it('refuses analyses past the plan\'s concurrency cap with a 429 saying when to retry', async () => {
      await setWorkDuration(get().engine.settings, { min_ms: 300, max_ms: 300 });
      try {
        for (const [plan, cap] of [['starter', 1], ['none', 1], ['ultimate', 5]] as const) {
          const service = get().as(plan);
          const jobs: string[] = [];
          for (let i = 0; i < cap; i++) jobs.push((await service.call('analysis.submit', { video_url: short.url, prompt: `Question ${i}` })).job_id);
          const refused = await failure(service.call('analysis.submit', { video_url: short.url, prompt: 'One more' }));
          expect(refused.status, plan).toBe(429);
          expect(refused.code).toBe('rate_limited');
          expect(refused.message).toMatch(new RegExp(`${cap} of your analyses are already waiting or running.*\\(${cap}\\)\\. Try again in \\d+s\\.$`));
          expect(refused.retryAfterSeconds).toBe(1); // the first one ends within 600 ms
          // Another user is not affected; once one finishes, the caller may submit again.
          await get().as(plan).call('analysis.submit', { video_url: short.url, prompt: 'Mine' });
          await finished(service, jobs[0]!);
          await service.call('analysis.submit', { video_url: short.url, prompt: 'Now it fits' });
        }
      } finally {
        await setWorkSetting(get().engine.settings, { preset: 'instant' });
      }
    });

    it('answers a client\'s JSON prompt in the shape it asks for: lists, objects, MM:SS.s times, no nulls', async () => {
      const service = get().as('ultimate');
      const prompt = 'Return JSON with keys: summary (string), shots (list of {start, end, description}), topics (list of strings), metadata (object with title, channel)';
      const job = await finished(service, (await service.call('analysis.submit', { video_url: spoken.url, prompt })).job_id);
      const answer = JSON.parse(job.analysis_text!);
      expect(answer).toMatchObject({ summary: expect.any(String), metadata: { title: spoken.title, channel: expect.any(String) } });
      expect(answer.shots.length).toBeGreaterThan(0);
      for (const shot of answer.shots) expect(shot).toEqual({ start: expect.stringMatching(/^\d{2}:\d{2}\.\d$/), end: expect.stringMatching(/^\d{2}:\d{2}\.\d$/), description: expect.any(String) });
      expect(answer.topics.every((topic: unknown) => typeof topic === 'string')).toBe(true);
      expect(job.analysis_text).not.toMatch(/\bnull\b/);
    });

    it('answers from the video\'s own content and follows the prompt', async () => {
      const service = get().as('ultimate');
      const ask = async (video: SampleVideo, prompt: string, extra: { media_resolution?: 'low' | 'default' } = {}) =>
        (await finished(service, (await service.call('analysis.submit', { video_url: video.url, prompt, ...extra })).job_id)).analysis_text!;
      const world = await get().engine.platform();
      const transcript = world.transcript(spoken.video_id)!;

      const json = JSON.parse(await ask(spoken, 'Return JSON with keys "title", "views", "summary" and "topics".'));
      const video = world.videoById(spoken.video_id)!;
      expect(json).toMatchObject({ title: video.title, views: video.views, _source: expect.stringContaining('sample world') });
      expect(json.summary).toContain(video.title);
      expect(Array.isArray(json.topics)).toBe(true);

      const free = JSON.parse(await ask(spoken, 'Describe the key moments as JSON.'));
      expect(free.video.video_id).toBe(spoken.video_id);
      expect(free.key_moments.length).toBeGreaterThan(0);

      const moments = await ask(spoken, 'Give me 4 timestamps of key moments.');
      const lines = moments.split('\n').filter((line) => /^\d+:\d\d — /.test(line));
      expect(lines).toHaveLength(4);
      for (const line of lines) {
        const [stamp, text] = line.split(' — ');
        const [m, s] = stamp!.split(':').map(Number);
        const cue = transcript.cues.find((candidate) => Math.floor(candidate.start) === m! * 60 + s!);
        expect(cue, line).toBeDefined();
        expect(cue!.text.startsWith(text!.replace(/…$/, ''))).toBe(true);
      }
      expect((await ask(spoken, 'Give me 4 timestamps of key moments.', { media_resolution: 'default' })).split('\n').filter((line) => /^\d+:\d\d — /.test(line))).toHaveLength(4);

      const summary = await ask(spoken, 'Summarize this video in one sentence.');
      expect(summary.trim().split('\n').slice(2).join(' ').match(/[.!?](\s|$)/g)!.length).toBeGreaterThanOrEqual(1);
      expect(summary).toContain(video.title);
      expect(await ask(short, 'Summarize this video in one sentence.')).not.toBe(summary);

      expect(await ask(music, 'What is said in the first 10 seconds?')).toMatch(/no speech|no captions/);
      expect(await ask(spoken, 'Describe the thumbnail colours.')).toMatch(/no pictures/);
    });

    it('refuses bad requests with a 400 and queues nothing', async () => {
      const service = get().as('ultimate');
      const cases: Array<[Record<string, unknown>, number, RegExp]> = [
        [{ prompt: 'Hi' }, 400, /video_url: is required/],
        [{ video_url: spoken.url }, 400, /prompt: is required/],
        [{ video_url: spoken.url, prompt: '   ' }, 400, /prompt: must not be empty/],
        [{ video_url: spoken.url, prompt: 'x'.repeat(4001) }, 400, /prompt: must be at most 4000 characters/],
        [{ video_url: spoken.url, prompt: 'Hi', media_resolution: 'high' }, 400, /media_resolution: must be one of: low, default/],
        [{ video_url: 'https://vimeo.com/1234', prompt: 'Hi' }, 400, /Unsupported URL/],
        [{ video_url: 'https://www.youtube.com/watch?v=AAAAAAAAAAA', prompt: 'Hi' }, 400, /Video unavailable/],
        [{ video_url: 'not a link', prompt: 'Hi' }, 400, /video_url: is not a link/],
      ];
      for (const [input, status, message] of cases) {
        const error = await failure(service.call('analysis.submit', input as never));
        expect(error.status, JSON.stringify(input).slice(0, 80)).toBe(status);
        expect(error.message).toMatch(message);
      }
      expect((await service.call('health', {})).total_jobs).toBe(0);
      // The longest prompt is accepted.
      await service.call('analysis.submit', { video_url: spoken.url, prompt: 'x'.repeat(4000) });
    });

    it('fails the job with a clear error when the vision model fails', async () => {
      const service = get().as('starter');
      await setFault(get().engine.settings, 'video-analysis');
      try {
        const job = await finished(service, (await service.call('analysis.submit', { video_url: spoken.url, prompt: 'Summarize' })).job_id);
        expect(job).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Video analysis failed: .*injected fault "video-analysis"/) });
        expect(job).not.toHaveProperty('analysis_text');
      } finally {
        await clearFault(get().engine.settings, 'video-analysis');
      }
    });
  },
  { world: { seed: 4, channels: 200, terminated: 0 }, clock, postgres: true },
);
