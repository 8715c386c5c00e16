import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { channelJobStatusInput } from '../../src/core/schemas/jobs.js';
import { clearFault, setFault } from '../../src/engine/faults.js';
import { indexedChannel } from '../../src/engine/features/channels/channel-index.js';
import { channelFixtures, setJobWork, type ChannelFixtures } from '../support/channel-fixtures.js';
import { describeEachEngine, failure } from '../support/engines.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describeEachEngine('channel processing jobs', (get) => {
  let channels: ChannelFixtures;
  let user: Service;
  beforeAll(async () => {
    channels = await channelFixtures(get().engine);
  });
  beforeEach(async () => {
    user = get().as('starter');
    await setJobWork(get().engine, 0);
  });

  const totalJobs = async (service: Service) => (await service.call('health', {})).total_jobs;

  it('queues a job and answers at once with job_id, status, type, channel_input, resolved_channel_id and requested_at', async () => {
    await setJobWork(get().engine, 500);
    const body = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
    expect(Object.keys(body).sort()).toEqual(
      ['channel_input', 'job_id', 'requested_at', 'resolved_channel_id', 'status', 'success', 'type'].sort(),
    );
    expect(body).toMatchObject({ success: true, type: 'longform', channel_input: channels.longform.handle, resolved_channel_id: channels.longform.channel_id });
    expect(Number.isInteger(body.job_id)).toBe(true);
    expect(['queued', 'running']).toContain(body.status);
    expect(body.requested_at).toMatch(ISO);
  });

  it('resolves a UC id, an @handle, channel URLs and video URLs of the channel to the same id, echoing the raw input', async () => {
    const { longform, shorts, longVideoId, shortVideoId } = channels;
    const forms: Array<[string, string]> = [
      [longform.channel_id, longform.channel_id],
      [longform.handle, longform.channel_id],
      [`https://www.youtube.com/${longform.handle}`, longform.channel_id],
      [`youtube.com/channel/${longform.channel_id}`, longform.channel_id],
      [`https://www.youtube.com/watch?v=${longVideoId}`, longform.channel_id],
      [`https://youtu.be/${longVideoId}`, longform.channel_id],
      [`https://www.youtube.com/shorts/${shortVideoId}`, shorts.channel_id],
      [`  ${longform.handle}\n`, longform.channel_id],
    ];
    for (const [channel, id] of forms) {
      const body = await user.call('channels.process', { channel, type: 'longform' });
      expect(body.resolved_channel_id).toBe(id);
      expect(body.channel_input).toBe(channel);
    }
  });

  it('refuses bad input with a 400 that names the field and how to fix it, and queues nothing', async () => {
    const handle = channels.longform.handle;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'longform' }, /channel/],
      [{ channel: '', type: 'longform' }, /channel/],
      [{ channel: ' \t ', type: 'longform' }, /channel: must not be empty/],
      [{ channel: handle }, /type/],
      [{ channel: handle, type: 'auto' }, /type: must be one of: shorts, longform/],
      [{ channel: handle, type: 'Shorts' }, /type/],
      [{ channel: 'not a channel', type: 'shorts' }, /channel: "not a channel" is not a channel or video/],
      [{ channel: '@no-such-handle-anywhere', type: 'shorts' }, /could not be resolved: no channel has that handle/],
      [{ channel: 'UCAAAAAAAAAAAAAAAAAAAAAA', type: 'shorts' }, /could not be resolved: no channel has that channel id/],
      [{ channel: 'https://www.youtube.com/watch?v=AAAAAAAAAAA', type: 'shorts' }, /could not be resolved: no channel has that video/],
      [{ channel: 'https://vimeo.com/12345', type: 'shorts' }, /is not a channel or video/],
    ];
    for (const [input, message] of cases) {
      const error = await failure(user.call('channels.process', input as never));
      expect(error.status, JSON.stringify(input)).toBe(400);
      expect(error.message).toMatch(message);
    }
    expect(await totalJobs(user)).toBe(0);
  });

  it('goes running → completed, showing exactly the fields of each state', async () => {
    await setJobWork(get().engine, 3_000);
    const submittedAt = Date.now();
    const wallSeconds = () => Math.ceil((Date.now() - submittedAt) / 1000);
    const submitted = await user.call('channels.process', { channel: channels.longform.channel_id, type: 'longform' });
    let running = await user.call('channels.processStatus', { job_id: submitted.job_id });
    for (let tries = 0; running.status === 'queued' && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      running = await user.call('channels.processStatus', { job_id: submitted.job_id });
    }
    expect(running.status).toBe('running');
    expect(Object.keys(running).sort()).toEqual(
      ['channel_input', 'claimed_at', 'elapsed_seconds', 'id', 'requested_at', 'resolved_channel_id', 'status', 'success', 'type'].sort(),
    );
    expect(running.id).toBe(submitted.job_id);
    expect(running.claimed_at).toMatch(ISO);
    // Whole seconds since the claim: never more than have passed, and growing (exact values are the clock's).
    expect(Number.isInteger(running.elapsed_seconds)).toBe(true);
    expect(running.elapsed_seconds).toBeGreaterThanOrEqual(0);
    expect(running.elapsed_seconds).toBeLessThanOrEqual(wallSeconds());
    await sleep(1_100);
    const later = await user.call('channels.processStatus', { job_id: submitted.job_id });
    expect(later.status).toBe('running');
    expect(later.elapsed_seconds).toBeGreaterThanOrEqual(Math.max(1, running.elapsed_seconds!));
    expect(later.elapsed_seconds).toBeLessThanOrEqual(wallSeconds());

    const done = await user.call('channels.processStatus', { job_id: submitted.job_id, wait_seconds: 10 });
    expect(done.status).toBe('completed');
    expect(Object.keys(done).sort()).toEqual(
      ['channel_input', 'claimed_at', 'completed_at', 'duration_seconds', 'eligible', 'id', 'requested_at', 'resolved_channel_id', 'result', 'status', 'success', 'type'].sort(),
    );
    expect(done.completed_at).toMatch(ISO);
    expect(Date.parse(done.completed_at!)).toBeGreaterThanOrEqual(Date.parse(done.claimed_at!) + 3_000);
    expect(done.duration_seconds).toBe(Math.round((Date.parse(done.completed_at!) - Date.parse(done.requested_at)) / 1000));
    expect(done.eligible).toBe(true);
  });

  it('builds the result by type: profile, statistics and recent long videos, or recent shorts', async () => {
    const longform = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
    const shorts = await user.call('channels.process', { channel: channels.shorts.handle, type: 'shorts' });
    const long = (await user.call('channels.processStatus', { job_id: longform.job_id, wait_seconds: 10 })).result as Record<string, any>;
    const short = (await user.call('channels.processStatus', { job_id: shorts.job_id, wait_seconds: 10 })).result as Record<string, any>;
    const world = await get().engine.platform();

    expect(long.channel).toMatchObject({ channel_id: channels.longform.channel_id, handle: channels.longform.handle, title: channels.longform.title, language: 'English' });
    expect(long.statistics).toMatchObject({ subscribers: channels.longform.subscribers, total_views: channels.longform.total_views, video_count: channels.longform.video_count });
    expect(long.statistics.views_gained_7d).toBe(world.growth(channels.longform.channel_id, 7)!.views);
    expect(long.shorts).toBeUndefined();
    const expectedLong = world.channelVideos(channels.longform.channel_id, { kind: 'long', limit: 20 });
    expect(long.videos).toEqual(
      expectedLong.map((video) => ({ video_id: video.video_id, title: video.title, views: video.views, duration_seconds: video.duration_seconds, published_at: video.published_at })),
    );

    expect(short.videos).toBeUndefined();
    const expectedShorts = world.channelVideos(channels.shorts.channel_id, { kind: 'short', limit: 20 });
    expect(short.shorts.map((video: { video_id: string }) => video.video_id)).toEqual(expectedShorts.map((video) => video.video_id));
    expect(short.shorts.every((video: { duration_seconds: number }) => video.duration_seconds <= 180)).toBe(true);
  });

  it('judges eligibility by size, language and content type, and says why', async () => {
    const outcome = async (channel: string, type: 'shorts' | 'longform') => {
      const { job_id } = await user.call('channels.process', { channel, type });
      return user.call('channels.processStatus', { job_id, wait_seconds: 10 });
    };
    const small = await outcome(channels.small.channel_id, channels.small.content_type === 'shorts' ? 'shorts' : 'longform');
    expect(small.eligible).toBe(false);
    expect((small.result as { ineligible_reasons: string[] }).ineligible_reasons.join(' ')).toMatch(/subscribers; at least 1,000 are needed/);

    const language = await outcome(channels.uncoveredLanguage.channel_id, channels.uncoveredLanguage.content_type === 'shorts' ? 'shorts' : 'longform');
    expect(language.eligible).toBe(false);
    expect((language.result as { ineligible_reasons: string[] }).ineligible_reasons.join(' ')).toMatch(/is not one the service covers/);

    const wrongType = await outcome(channels.shorts.handle, 'longform');
    expect(wrongType.eligible).toBe(false);
    expect((wrongType.result as { ineligible_reasons: string[] }).ineligible_reasons.join(' ')).toMatch(/publishes shorts content, not longform; submit it with type "shorts"/);

    const fine = await outcome(channels.shorts.handle, 'shorts');
    expect(fine.eligible).toBe(true);
    expect((fine.result as { ineligible_reasons: string[] }).ineligible_reasons).toEqual([]);
  });

  it('fails jobs with a clear error while the channel-job-fail fault is set, on a 200 poll', async () => {
    const { engine } = get();
    await setFault(engine.settings, 'channel-job-fail');
    try {
      const { job_id } = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
      const failed = await user.call('channels.processStatus', { job_id, wait_seconds: 10 });
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/channel-job-fail/);
      expect(failed.error_message).toBe(failed.error);
      expect(Number.isInteger(failed.duration_seconds)).toBe(true);
      for (const absent of ['completed_at', 'eligible', 'result', 'elapsed_seconds']) expect(failed).not.toHaveProperty(absent);
    } finally {
      await clearFault(engine.settings, 'channel-job-fail');
    }
    const { job_id } = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
    expect((await user.call('channels.processStatus', { job_id, wait_seconds: 10 })).status).toBe('completed');
  });

  it('returns the existing job with idempotent: true for a repeated idempotency key, and queues nothing', async () => {
    const first = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform', idempotency_key: 'nightly-1' });
    expect(first).not.toHaveProperty('idempotent');
    await user.call('channels.processStatus', { job_id: first.job_id, wait_seconds: 10 });
    const again = await user.call('channels.process', { channel: channels.shorts.handle, type: 'shorts', idempotency_key: 'nightly-1' });
    expect(again).toEqual({ ...first, status: 'completed', idempotent: true });
    expect(await totalJobs(user)).toBe(1);
  });

  it('makes exactly one job from concurrent submits with one idempotency key', async () => {
    await setJobWork(get().engine, 300);
    const submits = await Promise.all(
      Array.from({ length: 12 }, () => user.call('channels.process', { channel: channels.longform.handle, type: 'longform', idempotency_key: 'burst' })),
    );
    expect(new Set(submits.map((body) => body.job_id)).size).toBe(1);
    expect(submits.filter((body) => body.idempotent !== true)).toHaveLength(1);
    expect(await totalJobs(user)).toBe(1);
  });

  it('keeps idempotency keys per user', async () => {
    const other = get().as('starter');
    const mine = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform', idempotency_key: 'same-key' });
    const theirs = await other.call('channels.process', { channel: channels.longform.handle, type: 'longform', idempotency_key: 'same-key' });
    expect(theirs.job_id).not.toBe(mine.job_id);
    expect(theirs).not.toHaveProperty('idempotent');
  });

  it('holds a long-poll until the job finishes and answers soon after it (latency is the bench\'s)', async () => {
    await setJobWork(get().engine, 700);
    const { job_id } = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
    const started = Date.now();
    const done = await user.call('channels.processStatus', { job_id, wait_seconds: 10 });
    const answered = Date.now();
    expect(done.status).toBe('completed');
    expect(answered - started).toBeGreaterThanOrEqual(500);
    expect(answered).toBeGreaterThanOrEqual(Date.parse(done.completed_at!));
    expect(answered - Date.parse(done.completed_at!)).toBeLessThan(1_000);
  });

  it('answers concurrent long-polls in the order their jobs finish, each with its own final state', async () => {
    const { engine } = get();
    await setJobWork(engine, 1_500);
    const slow = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
    // A job reads its duration once its processor starts, a few store reads after its claim shows it
    // running (longer on a busy machine): only then can later jobs be quick.
    while ((await user.call('channels.processStatus', { job_id: slow.job_id })).status === 'queued') await sleep(10);
    await sleep(300);
    await setJobWork(engine, 0);
    const quick = await user.call('channels.process', { channel: channels.shorts.handle, type: 'shorts' });
    const answered: number[] = [];
    const poll = (jobId: number) =>
      user.call('channels.processStatus', { job_id: jobId, wait_seconds: 10 }).then((body) => {
        answered.push(body.id);
        return body;
      });
    const [slowBody, quickBody] = await Promise.all([poll(slow.job_id), poll(quick.job_id)]);
    expect(answered).toEqual([quick.job_id, slow.job_id]);
    expect(slowBody).toMatchObject({ status: 'completed', type: 'longform' });
    expect(quickBody).toMatchObject({ status: 'completed', type: 'shorts' });
  });

  it('answers a finished job at once, even with wait_seconds 30', async () => {
    const { job_id } = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
    await user.call('channels.processStatus', { job_id, wait_seconds: 10 });
    const started = Date.now();
    expect((await user.call('channels.processStatus', { job_id, wait_seconds: 30 })).status).toBe('completed');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('answers with the current state when wait_seconds pass first, and at once with wait_seconds 0', async () => {
    await setJobWork(get().engine, 3_000);
    const { job_id } = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
    let started = Date.now();
    const now = await user.call('channels.processStatus', { job_id, wait_seconds: 0 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(['queued', 'running']).toContain(now.status);
    started = Date.now();
    const held = await user.call('channels.processStatus', { job_id, wait_seconds: 1 });
    expect(held.status).toBe('running');
    // Held its second (the timer may end a few ms early by the wall clock), not until the job ends.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('caps wait_seconds above 30 and refuses values that are not whole numbers with a 400', async () => {
    expect(channelJobStatusInput.parse({ job_id: 1, wait_seconds: 45 }).wait_seconds).toBe(30);
    const { job_id } = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
    await user.call('channels.processStatus', { job_id, wait_seconds: 10 });
    expect((await user.call('channels.processStatus', { job_id, wait_seconds: 999 })).status).toBe('completed');
    for (const wait of ['soon', -1, 2.5, '1e3']) {
      const error = await failure(user.call('channels.processStatus', { job_id, wait_seconds: wait as never }));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(/wait_seconds/);
    }
    const error = await failure(user.call('channels.processStatus', { job_id: 'abc' as never }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/job_id/);
  });

  it('shows a job only to its user: anyone else, and any unknown id, gets 404', async () => {
    const { job_id } = await user.call('channels.process', { channel: channels.longform.handle, type: 'longform' });
    const stranger = get().as('ultimate');
    const hidden = await failure(stranger.call('channels.processStatus', { job_id }));
    expect(hidden.status).toBe(404);
    expect(hidden.message).toMatch(new RegExp(`Job ${job_id} not found`));
    expect((await failure(stranger.call('channels.processStatus', { job_id, wait_seconds: 5 }))).status).toBe(404);
    expect((await failure(user.call('channels.processStatus', { job_id: 987_654 }))).status).toBe(404);
    // A channel job is not a task job.
    expect((await failure(user.call('jobs.status', { job_id: String(job_id) }))).status).toBe(404);
  });

  it('stores what a job learned in the engine index', async () => {
    const { job_id } = await user.call('channels.process', { channel: channels.shorts.handle, type: 'shorts' });
    await user.call('channels.processStatus', { job_id, wait_seconds: 10 });
    const { engine } = get();
    const indexed = await indexedChannel(engine, channels.shorts.channel_id);
    expect(indexed).toMatchObject({ channel_id: channels.shorts.channel_id, title: channels.shorts.title, eligible: 1, last_job_id: job_id });
    const videos = (await engine.store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM indexed_videos WHERE channel_id = ? AND kind = 'short'`, [channels.shorts.channel_id]))!.n;
    // Collabs listed under the channel are indexed under the channel that hosts them.
    const listed = (await engine.platform()).channelVideos(channels.shorts.channel_id, { kind: 'short', limit: 20 });
    expect(videos).toBe(listed.filter((video) => video.channel_id === channels.shorts.channel_id).length);
    // On a fleet's PostgreSQL the index is the database's: the data dir's SQLite file holds none of it.
    if (get().store === 'postgres') {
      for (const table of ['indexed_channels', 'indexed_videos']) expect(engine.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get(), table).toBe(0);
    }
  });
}, { postgres: true });

describeEachEngine('process-channel rate limit', (get, variant) => {
  it('allows 30 submits a minute per user, then answers 429 with Retry-After and "Try again in N s."', async () => {
    await setJobWork(get().engine, 0);
    const user = get().as('professional');
    const channel = (await get().engine.platform()).sampleChannels(1)[0]!.channel_id;
    for (let index = 0; index < 30; index += 1) await user.call('channels.process', { channel, type: 'longform' });
    const error = await failure(user.call('channels.process', { channel, type: 'longform' }));
    expect(error.status).toBe(429);
    expect(error.code).toBe('rate_limited');
    expect(error.message).toMatch(/^Rate limit exceeded \(30 requests\/min\)\. Try again in \d+s\.$/);
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await user.call('health', {})).total_jobs).toBe(30);
    // Another user has a window of their own.
    await get().as('professional').call('channels.process', { channel, type: 'longform' });
  });

  it('does not count refused submits or idempotent replays', async () => {
    const user = get().as('starter');
    const channel = (await get().engine.platform()).sampleChannels(1)[0]!.channel_id;
    for (let index = 0; index < 5; index += 1) await failure(user.call('channels.process', { channel: '@nobody-at-all-here', type: 'longform' }));
    const first = await user.call('channels.process', { channel, type: 'longform', idempotency_key: 'replayed' });
    for (let index = 0; index < 40; index += 1) {
      expect((await user.call('channels.process', { channel, type: 'longform', idempotency_key: 'replayed' })).job_id).toBe(first.job_id);
    }
    for (let index = 0; index < 29; index += 1) await user.call('channels.process', { channel, type: 'longform' });
    expect((await failure(user.call('channels.process', { channel, type: 'longform' }))).status).toBe(429);
  });

  it.runIf(variant.kind === 'remote')('sends the Retry-After header over HTTP', async () => {
    const harness = get();
    const key = (await harness.engine.identity.createUserWithKey('starter', [])).key;
    const channel = (await harness.engine.platform()).sampleChannels(1)[0]!.channel_id;
    let response: Response | undefined;
    for (let index = 0; index < 31; index += 1) {
      response = await fetch(`${harness.baseUrl}/api/process-channel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel, type: 'shorts' }),
      });
    }
    expect(response!.status).toBe(429);
    expect(Number(response!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await response!.json()).error).toMatch(/Try again in \d+s\./);
  });
}, { planOverrides: {}, postgres: true });

describeEachEngine('process-channel rate limit from the plan table', (get) => {
  it('uses the configured per-minute value', async () => {
    await setJobWork(get().engine, 0);
    const user = get().as('starter');
    const channel = (await get().engine.platform()).sampleChannels(1)[0]!.channel_id;
    for (let index = 0; index < 3; index += 1) await user.call('channels.process', { channel, type: 'shorts' });
    const error = await failure(user.call('channels.process', { channel, type: 'shorts' }));
    expect(error.status).toBe(429);
    expect(error.message).toMatch(/\(3 requests\/min\)/);
  });
}, { planOverrides: { starter: { processChannelPerMinute: 3 } }, postgres: true });
