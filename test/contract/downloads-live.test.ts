/**
 * Downloads on a live data dir: yt-dlp and ffmpeg fetch the video's real streams (here a media
 * fixture server on 127.0.0.1 standing in for the site: metadata, streams, captions). Each format,
 * sections cut to the length asked, a lower height than asked said so, streams of other codecs
 * re-encoded, the size rule judged on the real streams before any media is fetched, the cache.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { describeEachEngine, failure, type EngineHarness } from '../support/engines.js';
import { hasYtdlp, liveWatchUrl } from '../support/live-media.js';
import { type MediaFixtureServer, startMediaFixtureServer } from '../support/media-fixture-server.js';
import { probe } from '../support/media.js';

// yt-dlp, ffmpeg and the fixture media they fetch (made on first use) take seconds each, more on a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let server: MediaFixtureServer;
beforeAll(async () => {
  server = await startMediaFixtureServer();
  vi.stubEnv('TUBEKIT_PLATFORM_ORIGIN', server.origin);
  server.add({ id: 'liveVideo01', title: 'Tea: a “fixture” video', formats: ['h264-360', 'h264-480', 'h264-720', 'aac', 'opus', 'progressive-360'], humanCaptions: true, autoCaptions: true });
  server.add({ id: 'liveVideo02', formats: ['h264-360', 'h264-720', 'aac'], autoCaptions: true });
  server.add({ id: 'liveVideo03', formats: ['h264-360', 'aac'] });
  server.add({ id: 'liveVp9only', formats: ['vp9-480', 'opus'] });
  server.add({ id: 'liveOnly144', formats: ['h264-1440', 'aac'] });
  server.add({ id: 'liveSection', formats: ['h264-360', 'h264-720', 'aac'], humanCaptions: true });
  // Four hours long by its metadata: over the 3-hour rule whatever the quality.
  server.add({ id: 'liveLong001', duration: 4 * 3600, formats: ['h264-360', 'aac'] });
  // One hour whose 720p stream weighs 2 GB: over 500 MB unless clipped.
  server.add({ id: 'liveHeavy01', duration: 3600, formats: [{ stock: 'h264-720', filesize: 2_000_000_000 }, { stock: 'h264-360', filesize: 150_000_000 }, 'aac'] });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server?.close();
});

async function saved(harness: EngineHarness, service: Service, url: string): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-live-dl-')), 'file');
  const stream = await service.fetchFile(url);
  await new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(file);
    (stream as NodeJS.ReadableStream).pipe(out);
    out.on('finish', resolve);
    out.on('error', reject);
  });
  void harness;
  return file;
}

(hasYtdlp ? describeEachEngine : () => undefined)('downloads on the live platform', (get) => {
  let service: Service;
  beforeAll(async () => {
    await get().engine.localSettings.set('platform', 'live');
    service = get().as();
  });

  it('fetches a video as H.264/AAC MP4 at the height asked, then answers it from the cache without fetching again', async () => {
    const body = await service.call('download', { video_url: liveWatchUrl('liveVideo01'), quality: '720p' });
    expect(body).toMatchObject({ success: true, video_id: 'liveVideo01', title: 'Tea: a “fixture” video', format: 'video', quality: 720, cached: false, start_seconds: null, end_seconds: null });
    expect(body).not.toHaveProperty('quality_note');
    expect(decodeURIComponent(body.download_url)).toMatch(/\/Tea a “fixture” video \(720p\)\.mp4$/);
    const media = await probe(await saved(get(), service, body.download_url));
    expect(media.streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ codec_name: 'h264', height: 720 });
    expect(media.streams.find((stream) => stream.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
    expect(media.streams.find((stream) => stream.codec_type === 'subtitle')).toMatchObject({ codec_name: 'mov_text', tags: { language: 'eng' } });
    expect(Math.abs(media.duration - 20)).toBeLessThan(0.5);
    expect(body.size_bytes).toBe(fs.statSync(await saved(get(), service, body.download_url)).size);
    const fetched = server.mediaRequests().length;
    const again = await service.call('download', { video_url: `https://youtu.be/liveVideo01`, quality: '720p' });
    expect(again).toMatchObject({ cached: true, download_url: body.download_url, size_bytes: body.size_bytes });
    expect(server.mediaRequests().length).toBe(fetched);
    // A failed fetch never went back to the watch page (the metadata's webpage_url is dropped).
    expect(server.seen.some((request) => request.path === '/watch')).toBe(false);
  });

  it('delivers the audio as MP3', async () => {
    const body = await service.call('download', { video_url: liveWatchUrl('liveVideo01'), format: 'audio' });
    expect(body).toMatchObject({ format: 'audio', quality: 0 });
    expect(body.download_url).toMatch(/\.mp3$/);
    const media = await probe(await saved(get(), service, body.download_url));
    expect(media.streams.map((stream) => stream.codec_name)).toEqual(['mp3']);
    expect(Math.abs(media.duration - 20)).toBeLessThan(0.5);
  });

  it('delivers English subtitles as SRT: human captions first, else auto-generated; none is a 400', async () => {
    const human = await service.call('download', { video_url: liveWatchUrl('liveVideo01'), format: 'subtitles' });
    expect(human.download_url).toMatch(/\.en\.srt$/);
    const humanText = fs.readFileSync(await saved(get(), service, human.download_url), 'utf8');
    expect(humanText).toMatch(/^1\r?\n00:00:00,000 --> 00:00:03,000\r?\nHuman caption 1/);
    const auto = await service.call('download', { video_url: liveWatchUrl('liveVideo02'), format: 'subtitles' });
    expect(fs.readFileSync(await saved(get(), service, auto.download_url), 'utf8')).toContain('auto caption 1');
    const none = await failure(service.call('download', { video_url: liveWatchUrl('liveVideo03'), format: 'subtitles' }));
    expect(none).toMatchObject({ status: 400, code: 'subtitles_unavailable' });
  });

  it('cuts a section to the length asked (±0.5 s) and clamps an end past the video', async () => {
    const body = await service.call('download', { video_url: liveWatchUrl('liveSection'), quality: '360p', start: 5.5, end: 12.25 });
    expect(body).toMatchObject({ start_seconds: 5.5, end_seconds: 12.25, duration_seconds: 6.75, quality: 360 });
    const file = await saved(get(), service, body.download_url);
    const media = await probe(file);
    expect(Math.abs(media.duration - 6.75)).toBeLessThanOrEqual(0.5);
    // Its subtitle track is timed from the section's start: the cue of 8 s to 11 s plays at 2.5 s.
    const { stdout: track } = await execa('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:s:0', '-f', 'srt', '-']);
    expect(track).toMatch(/00:00:02,500 --> 00:00:05,500\r?\nHuman caption 3/);
    const clamped = await service.call('download', { video_url: liveWatchUrl('liveSection'), format: 'audio', start: 15, end: '1:00' });
    expect(clamped).toMatchObject({ start_seconds: 15, end_seconds: 20, duration_seconds: 5 });
    const audio = await probe(await saved(get(), service, clamped.download_url));
    expect(Math.abs(audio.duration - 5)).toBeLessThanOrEqual(0.5);
  });

  it('says so when the video has no stream as high as asked', async () => {
    const body = await service.call('download', { video_url: liveWatchUrl('liveVideo02'), quality: '1080p' });
    expect(body).toMatchObject({ quality: 720, requested_quality: 1080 });
    expect(body.quality_note).toBe('Delivered 720p, lower than the 1080p requested: the video has no 1080p stream.');
  });

  it('re-encodes with ffmpeg only where no H.264/AAC stream fits, and scales down a video with no stream that low', async () => {
    const vp9 = await service.call('download', { video_url: liveWatchUrl('liveVp9only'), quality: '480p' });
    expect(vp9.quality).toBe(480);
    const recoded = await probe(await saved(get(), service, vp9.download_url));
    expect(recoded.streams.map((stream) => [stream.codec_type, stream.codec_name])).toEqual([
      ['video', 'h264'],
      ['audio', 'aac'],
    ]);
    const high = await service.call('download', { video_url: liveWatchUrl('liveOnly144'), quality: '360p' });
    expect(high).toMatchObject({ quality: 360 });
    expect(high).not.toHaveProperty('quality_note');
    const scaled = await probe(await saved(get(), service, high.download_url));
    expect(scaled.streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ codec_name: 'h264', height: 360, width: 640 });
  });

  it('judges the 3-hour and 500 MB rules on the real streams before fetching any media', async () => {
    const before = server.mediaRequests().length;
    const long = await failure(service.call('download', { video_url: liveWatchUrl('liveLong001'), quality: '360p' }));
    expect(long).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(long.message).toMatch(/4:00:00 of media, over the 3:00:00 download limit/);
    const heavy = await failure(service.call('download', { video_url: liveWatchUrl('liveHeavy01'), quality: '720p' }));
    expect(heavy.message).toMatch(/about 2,000 MB of 720p video \(the platform's own streams\), over the 500 MB download limit\. Clip it with start and end to at most 14:59 — 45:01 shorter\./);
    expect(server.mediaRequests().length).toBe(before);
  });
}, { postgres: true });

const REFUSALS = {
  livePrivat1: { status: 403, text: "ERROR: [youtube] livePrivat1: Private video. Sign in if you've been granted access to this video" },
  liveRemove1: { status: 404, text: 'ERROR: [youtube] liveRemove1: Video unavailable. This video has been removed by the uploader' },
  liveAgeGat1: { status: 403, text: 'ERROR: [youtube] liveAgeGat1: Sign in to confirm your age. This video may be inappropriate for some users.' },
  liveMember1: { status: 403, text: 'ERROR: [youtube] liveMember1: Join this channel to get access to members-only content like this video, and other exclusive perks.' },
  liveBotChk1: { status: 403, text: "ERROR: [youtube] liveBotChk1: Sign in to confirm you're not a bot. Use --cookies-from-browser or --cookies for the authentication." },
  liveSignIn1: { status: 403, text: 'ERROR: [youtube] liveSignIn1: This video requires login. Use --cookies for the authentication.' },
};

(hasYtdlp ? describeEachEngine : () => undefined)('live downloads that fail', (get) => {
  let service: Service;
  beforeAll(async () => {
    await get().engine.localSettings.set('platform', 'live');
    service = get().as('starter');
    for (const [id, error] of Object.entries(REFUSALS)) server.add({ id, formats: [], error });
    server.add({ id: 'liveBroken1', formats: ['h264-360', 'aac'], brokenMedia: true });
    server.add({ id: 'liveAfter01', formats: ['h264-360', 'aac'] });
  });
  afterEach(() => vi.stubEnv('TUBEKIT_YTDLP', undefined as unknown as string));

  it("answers 400 video_unavailable with yt-dlp's reason for private, removed, age-restricted and members-only videos", async () => {
    const expected = {
      livePrivat1: /^Video unavailable \(private\): livePrivat1: Private video\./,
      liveRemove1: /^Video unavailable \(removed\): liveRemove1: Video unavailable\. This video has been removed by the uploader/,
      liveAgeGat1: /^Video unavailable \(age-restricted\): liveAgeGat1: Sign in to confirm your age/,
      liveMember1: /^Video unavailable \(members-only\): liveMember1: Join this channel/,
    };
    for (const [id, message] of Object.entries(expected)) {
      const error = await failure(service.call('download', { video_url: liveWatchUrl(id) }));
      expect(error, id).toMatchObject({ status: 400, code: 'video_unavailable' });
      expect(error.message, id).toMatch(message);
    }
    expect((await failure(service.call('download', { video_url: liveWatchUrl('liveAgeGat1') }))).hint).toMatch(/TUBEKIT_COOKIES/);
  });

  it('answers 503 with what to do when the platform asks to sign in or to prove this is not a bot', async () => {
    for (const id of ['liveBotChk1', 'liveSignIn1']) {
      const error = await failure(service.call('download', { video_url: liveWatchUrl(id) }));
      expect(error, id).toMatchObject({ status: 503, code: 'platform_refused' });
      expect(error.message).toContain(id);
      expect(error.hint).toMatch(/cookies file.*TUBEKIT_COOKIES/);
    }
    expect((await failure(service.call('download', { video_url: liveWatchUrl('liveBotChk1') }))).hint).toMatch(/TUBEKIT_PROXY.*update yt-dlp/);
  });

  it('answers 503 naming the yt-dlp found when it is missing or too old, with how to install a current one', async () => {
    vi.stubEnv('TUBEKIT_YTDLP', path.join(os.tmpdir(), 'no-such-dir', 'yt-dlp'));
    const missing = await failure(service.call('download', { video_url: liveWatchUrl('liveAfter01') }));
    expect(missing).toMatchObject({ status: 503, code: 'unavailable' });
    expect(missing.message).toMatch(/need yt-dlp, which could not be run \(.*no-such-dir\/yt-dlp: not found\)/);
    expect(missing.hint).toMatch(/releases\/latest.*pipx install yt-dlp/);
    const old = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-old-ytdlp-')), 'yt-dlp');
    fs.writeFileSync(old, '#!/bin/sh\necho 2021.12.27\n', { mode: 0o755 });
    vi.stubEnv('TUBEKIT_YTDLP', old);
    const tooOld = await failure(service.call('download', { video_url: liveWatchUrl('liveAfter01') }));
    expect(tooOld).toMatchObject({ status: 503, code: 'unavailable' });
    expect(tooOld.message).toBe(`Live downloads need yt-dlp 2023.03.04 or newer; ${old} is version 2021.12.27.`);
  });

  it('answers 502 when the streams cannot be fetched; none of these failures counts toward the hourly cap or keeps a slot', async () => {
    const broken = await failure(service.call('download', { video_url: liveWatchUrl('liveBroken1'), quality: '360p' }));
    expect(broken).toMatchObject({ status: 502, code: 'upstream_error' });
    expect(broken.message).toMatch(/^yt-dlp could not fetch liveBroken1: .*404/);
    const slots = (await get().engine.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM download_slots'))!.n;
    expect(slots).toBe(0);
    // The Starter plan's 5 an hour: every failure above left them all.
    for (let index = 0; index < 5; index++) expect((await service.call('download', { video_url: liveWatchUrl('liveAfter01'), quality: '360p' })).success).toBe(true);
    expect(await failure(service.call('download', { video_url: liveWatchUrl('liveAfter01'), quality: '360p' }))).toMatchObject({ status: 429, code: 'rate_limited' });
    // Nothing of the broken fetch is left in the cache's folder or the scratch folder.
    const dataDir = get().engine.dataDir;
    expect(fs.existsSync(path.join(dataDir, 'cdn', 'downloads', 'liveBroken1'))).toBe(false);
    expect(fs.readdirSync(path.join(dataDir, 'scratch'))).toEqual([]);
  });
}, { postgres: true });

(hasYtdlp ? describeEachEngine : () => undefined)('live downloads in progress', (get) => {
  beforeAll(async () => {
    await get().engine.localSettings.set('platform', 'live');
    server.add({ id: 'liveSlow001', formats: ['h264-360', 'aac'] });
    server.add({ id: 'liveOther01', formats: ['h264-360', 'aac'] });
  });
  afterEach(() => server.throttle(0));

  it("holds the Starter plan's one parallel slot while yt-dlp fetches (another is refused at once), reporting progress in-process", async () => {
    const starter = get().as('starter');
    server.throttle(150_000);
    const progress: Array<{ fraction: number | null; downloaded_bytes: number }> = [];
    const slow = starter.call('download', { video_url: liveWatchUrl('liveSlow001'), quality: '360p' }, { onProgress: (step) => progress.push(step) });
    const slots = async () => (await get().engine.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM download_slots'))!.n;
    const deadline = Date.now() + 20_000;
    while ((await slots()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await failure(starter.call('download', { video_url: liveWatchUrl('liveOther01'), quality: '360p' }));
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(refused.message).toMatch(/allows 1 in parallel and 1 is in progress; this one was not queued\. Try again in \d+s\./);
    server.throttle(0);
    expect((await slow).cached).toBe(false);
    if (get().kind === 'embedded') {
      // yt-dlp's progress lines, summed over its streams, reach an in-process caller.
      expect(progress.length).toBeGreaterThan(2);
      const fractions = progress.map((step) => step.fraction).filter((fraction): fraction is number => fraction !== null);
      expect(fractions.at(-1)).toBe(1);
      expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    }
    expect((await starter.call('download', { video_url: liveWatchUrl('liveOther01'), quality: '360p' })).success).toBe(true);
  });
}, { postgres: true });
