/**
 * `GET /api/jobs` (our extension): the caller's recent jobs of every kind, newest first, with
 * filters by kind and state and a limit — so a lost job id can be found again.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { setWorkSetting } from '../../src/engine/simulated-work.js';
import { describeEachEngine, failure } from '../support/engines.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeEachEngine(
  'job list',
  (get) => {
    let service: Service;
    let handle: string;
    let videoUrl: string;
    const ids: { channel?: number; generation?: string; analysis?: string; failed?: string } = {};

    beforeAll(async () => {
      await setWorkSetting(get().engine.settings, { preset: 'instant' });
      const platform = await get().engine.platform();
      handle = platform.sampleChannels(1)[0]!.handle;
      videoUrl = platform.sampleVideos(30).find((video) => video.kind === 'long' && video.captions !== null)!.url;
      service = get().as('professional');
      ids.channel = (await service.call('channels.process', { channel: handle, type: 'longform' })).job_id;
      await service.call('channels.processStatus', { job_id: ids.channel, wait_seconds: 10 });
      ids.generation = (await service.call('generate', { script: 'Found again.', voice_id: 'espeak-en-us' })).job_id;
      await service.call('jobs.status', { job_id: ids.generation, wait_seconds: 10 });
      ids.analysis = (await service.call('analysis.submit', { video_url: videoUrl, prompt: 'Summarize it.' })).job_id;
      await service.call('jobs.status', { job_id: ids.analysis, wait_seconds: 10 });
      await setFault(get().engine.settings, 'speech-synthesis');
      try {
        ids.failed = (await service.call('generate', { script: 'Not this one.', voice_id: 'espeak-en-us' })).job_id;
        await service.call('jobs.status', { job_id: ids.failed, wait_seconds: 10 });
      } finally {
        await clearFault(get().engine.settings, 'speech-synthesis');
      }
    });

    it('lists the caller\'s jobs of every kind, newest first, each with the id its status route takes', async () => {
      const body = await service.call('jobs.list', {});
      expect(body.count).toBe(4);
      expect(body.jobs.map((job) => [job.kind, job.job_id])).toEqual([
        ['generation', ids.failed],
        ['analysis', ids.analysis],
        ['generation', ids.generation],
        ['channel', ids.channel],
      ]);
      const [failed, analysis, generation, channel] = body.jobs;
      expect(channel).toMatchObject({ type: 'longform', status: 'completed', subject: handle, job_id: expect.any(Number) });
      expect(generation).toMatchObject({ type: 'generation', status: 'completed', subject: 'Found again.', job_id: expect.stringMatching(UUID) });
      expect(analysis).toMatchObject({ type: 'analysis', status: 'completed', subject: videoUrl });
      expect(failed).toMatchObject({ status: 'failed', error: expect.stringMatching(/Speech synthesis failed/) });
      expect(failed!.error_message).toBe(failed!.error);
      for (const job of body.jobs) expect(Date.parse(job.created_at)).toBeGreaterThan(0);
    });

    it('filters by kind and by state, and keeps to the limit', async () => {
      const channelJobs = await service.call('jobs.list', { kind: 'channel' });
      expect(channelJobs.jobs.map((job) => job.job_id)).toEqual([ids.channel]);
      const failed = await service.call('jobs.list', { status: 'failed' });
      expect(failed.jobs.map((job) => job.job_id)).toEqual([ids.failed]);
      const completedGenerations = await service.call('jobs.list', { kind: 'generation', status: 'completed' });
      expect(completedGenerations.jobs.map((job) => job.job_id)).toEqual([ids.generation]);
      const latest = await service.call('jobs.list', { limit: 2 });
      expect(latest.jobs.map((job) => job.job_id)).toEqual([ids.failed, ids.analysis]);
    });

    it('shows nobody else\'s jobs', async () => {
      expect(await get().as('professional').call('jobs.list', {})).toEqual({ success: true, jobs: [], count: 0 });
    });

    it('refuses an unknown kind or state and a limit out of range with a 400 naming the field', async () => {
      for (const [input, field] of [[{ kind: 'upload' }, 'kind'], [{ status: 'done' }, 'status'], [{ limit: 101 }, 'limit'], [{ limit: 0 }, 'limit']] as const) {
        const error = await failure(service.call('jobs.list', input as never));
        expect(error.status).toBe(400);
        expect(error.message).toContain(field);
      }
    });
  },
  { world: { seed: 4, channels: 200, terminated: 0 }, postgres: true },
);
