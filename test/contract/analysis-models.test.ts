/**
 * Video analysis by a real vision model, on both engines (in-process, and the remote client
 * through serve), the model configured for the engine (never by the caller) and played by fixture
 * APIs on 127.0.0.1 that check what they receive: a chat-completions API sent evenly sampled
 * JPEG frames with the transcript and the prompt, and the Gemini API sent the video file once
 * (Files API) and asked with it. Then every way the model API fails, and the key kept out of
 * everything.
 */
import { execa } from 'execa';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { TaskJob } from '../../src/core/schemas/jobs.js';
import type { Service } from '../../src/core/service.js';
import type { SampleVideo } from '../../src/engine/platform/sample/index.js';
import { setWorkSetting } from '../../src/engine/simulated-work.js';
import { describeEachEngine } from '../support/engines.js';
import { probe } from '../support/media.js';
import { startVisionFixture, type VisionFixture } from '../support/vision-fixture-server.js';

const KEY = 'sk-fixture-secret-KEY-0123456789abcdef';
/** Renders, frame sampling and uploads of real media: minutes on a loaded machine. */
const HEAVY_MS = 180_000;
const MODEL = 'fixture-vision-1';

/** The engine's own environment, filled per test: the engine reads it when a job runs. */
const env: NodeJS.ProcessEnv = {};
let fixture: VisionFixture;

beforeAll(async () => {
  fixture = await startVisionFixture();
});
afterAll(async () => {
  await fixture.close();
});

function useChatModel(extra: Record<string, string> = {}) {
  for (const name of Object.keys(env)) delete env[name];
  Object.assign(env, { TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: fixture.chatBaseUrl, TUBEKIT_ANALYSIS_MODEL: MODEL, TUBEKIT_ANALYSIS_API_KEY: KEY, ...extra });
}

function useGemini(extra: Record<string, string> = {}) {
  for (const name of Object.keys(env)) delete env[name];
  Object.assign(env, { TUBEKIT_ANALYSIS_PROVIDER: 'gemini', TUBEKIT_ANALYSIS_BASE_URL: fixture.geminiBaseUrl, TUBEKIT_ANALYSIS_MODEL: 'gemini-fixture', TUBEKIT_ANALYSIS_API_KEY: KEY, ...extra });
}

async function finished(service: Service, jobId: string): Promise<TaskJob> {
  for (let round = 0; round < 40; round++) {
    const job = await service.call('jobs.status', { job_id: jobId, wait_seconds: 10 });
    if (job.status === 'completed' || job.status === 'failed') return job;
  }
  throw new Error(`job ${jobId} did not finish`);
}

async function analyse(service: Service, video: SampleVideo, prompt: string, media_resolution: 'low' | 'default' = 'low'): Promise<TaskJob & { submittedCached: boolean }> {
  const submitted = await service.call('analysis.submit', { video_url: video.url, prompt, media_resolution });
  return { ...(await finished(service, submitted.job_id)), submittedCached: submitted.cached };
}

const seconds = (label: string) => {
  const [m, s] = /(\d+):(\d\d)/.exec(label)!.slice(1).map(Number);
  return m! * 60 + s!;
};

/** Every byte the engine stored: the database and its write-ahead log. */
function storedBytes(dataDir: string): string {
  return ['tubekit.db', 'tubekit.db-wal']
    .map((name) => path.join(dataDir, name))
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file).toString('latin1'))
    .join('');
}

describeEachEngine(
  'video analysis by a vision model',
  (get) => {
    let long: SampleVideo;
    let short: SampleVideo;
    beforeAll(async () => {
      await setWorkSetting(get().engine.settings, { preset: 'instant' });
      const videos = (await get().engine.platform()).sampleVideos(300);
      long = videos.find((video) => video.kind === 'long' && video.captions === 'human' && video.duration_seconds < 240)!;
      short = videos.find((video) => video.kind === 'short' && video.captions === 'human' && video.duration_seconds >= 12 && video.duration_seconds < 30)!;
    });
    beforeEach(() => fixture.reset());

    it('sends a chat model 12 frames of the whole video at low resolution, with the transcript and the prompt, and answers with its text', async () => {
      useChatModel();
      fixture.answerChat = (chat) => `The video shows ${chat.images.length} scenes.`;
      const service = get().as('starter');
      const prompt = 'Describe the opening shot and list the topics.';
      const job = await analyse(service, long, prompt);
      expect(job).toMatchObject({ status: 'completed', analysis_text: 'The video shows 12 scenes.', cached: false, media_resolution: 'low' });
      expect(fixture.violations).toEqual([]);
      expect(fixture.chats).toHaveLength(1);
      const [chat] = fixture.chats;
      expect(chat!.model).toBe(MODEL);
      expect(chat!.authorization).toBe(`Bearer ${KEY}`);
      expect(chat!.images).toHaveLength(12);
      for (const image of chat!.images) {
        expect(image.detail).toBe('low');
        expect(Math.max(image.width, image.height)).toBeLessThanOrEqual(512);
        expect(image.height).toBe(288); // 360p scaled into 512 × 512, 16:9 kept
        expect(image.jpeg.length).toBeLessThanOrEqual(80 * 1024);
      }
      // Evenly across the whole length: one frame in each twelfth, in order.
      const times = chat!.labels.map(seconds);
      times.forEach((time, index) => {
        expect(time).toBeGreaterThanOrEqual(Math.floor((index * long.duration_seconds) / 12));
        expect(time).toBeLessThanOrEqual(Math.ceil(((index + 1) * long.duration_seconds) / 12));
      });
      const transcript = (await get().engine.platform()).transcript(long.video_id)!;
      expect(chat!.text).toContain(long.title);
      expect(chat!.text).toContain(`Transcript (captions by the uploader):`);
      expect(chat!.text).toContain(transcript.cues[0]!.text.replace(/\s+/g, ' ').trim());
      expect(chat!.text).toContain(transcript.cues.at(-1)!.text.replace(/\s+/g, ' ').trim());
      expect(chat!.text.trimEnd().endsWith(`Request:\n${prompt}`)).toBe(true);
      expect(chat!.system).toMatch(/frames/);
    }, HEAVY_MS);

    it('sends 32 larger frames at default resolution, one a second at most for a short video; every frame decodes', async () => {
      useChatModel();
      const service = get().as('starter');
      expect((await analyse(service, long, 'What changes over the video?', 'default')).status).toBe('completed');
      const [chat] = fixture.chats;
      expect(chat!.images).toHaveLength(32);
      for (const image of chat!.images) {
        expect(image.detail).toBe('high');
        expect([image.width, image.height]).toEqual([1024, 576]); // 720p scaled into 1024 × 1024
        expect(image.jpeg.length).toBeLessThanOrEqual(200 * 1024);
      }
      expect(chat!.bodyBytes).toBeLessThan(32 * 200 * 1024 * 1.4);
      // Decodable by a real decoder, not only well-formed: all 32 in one ffmpeg run.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-frames-'));
      try {
        chat!.images.forEach((image, index) => fs.writeFileSync(path.join(dir, `${String(index).padStart(3, '0')}.jpg`), image.jpeg));
        const decoded = await execa('ffmpeg', ['-v', 'error', '-f', 'image2', '-i', path.join(dir, '%03d.jpg'), '-f', 'framemd5', '-'], { reject: false });
        expect(decoded.exitCode, decoded.stderr).toBe(0);
        expect(decoded.stderr).toBe('');
        expect(decoded.stdout.split('\n').filter((line) => /^0,/.test(line))).toHaveLength(32);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }

      expect((await analyse(service, short, 'Summarize it.', 'default')).status).toBe('completed');
      const shortChat = fixture.chats[1]!;
      expect(shortChat.images).toHaveLength(Math.floor(short.duration_seconds));
      // A short is portrait (9:16), already within 1024 × 1024: never enlarged.
      expect([shortChat.images[0]!.width, shortChat.images[0]!.height]).toEqual([406, 720]);
    }, HEAVY_MS);

    it('reuses the frames of the user\'s upload within 2 hours (cached: true); another user samples their own', async () => {
      useChatModel();
      const service = get().as('starter');
      const first = await analyse(service, short, 'Summarize it.');
      expect(first).toMatchObject({ status: 'completed', cached: false, submittedCached: false });
      const handle = async () => (await get().engine.store.get<{ handle: string }>('SELECT handle FROM analysis_uploads WHERE video_id = ? ORDER BY uploaded_at DESC', [short.video_id]))!.handle;
      const firstHandle = JSON.parse(await handle());
      expect(firstHandle).toMatchObject({ kind: 'frames', resolution: 'low' });
      const again = await analyse(service, short, 'Now list the topics.');
      expect(again).toMatchObject({ status: 'completed', cached: true, submittedCached: true });
      expect(JSON.parse(await handle()).dir).toBe(firstHandle.dir);
      expect(fixture.chats[1]!.images.map((image) => image.jpeg)).toEqual(fixture.chats[0]!.images.map((image) => image.jpeg));
      expect(fixture.chats[1]!.text).toContain('Now list the topics.');
      // Another resolution is another upload.
      expect(await analyse(service, short, 'And in detail?', 'default')).toMatchObject({ submittedCached: false, cached: false });
      expect(await analyse(get().as('starter'), short, 'Summarize it.')).toMatchObject({ submittedCached: false, cached: false });
    }, HEAVY_MS);

    it('uploads the video to Gemini once (360p for low), waits until it is ACTIVE, and asks generateContent with it', async () => {
      useGemini();
      const service = get().as('starter');
      const job = await analyse(service, long, 'Describe the pictures.');
      expect(job.status, job.error).toBe('completed');
      expect(fixture.violations).toEqual([]);
      expect(fixture.uploads).toHaveLength(1);
      const [upload] = fixture.uploads;
      expect(job).toMatchObject({ status: 'completed', cached: false, analysis_text: `Gemini watched ${upload!.bytes.length} bytes of video/mp4.` });
      expect(upload!.startKey).toBe(KEY);
      expect(upload!.bytesKey).toBeUndefined(); // the upload URL's session needs no key
      expect(upload!.displayName).toContain(long.video_id);
      const file = path.join(os.tmpdir(), `tubekit-gemini-${process.pid}.mp4`);
      fs.writeFileSync(file, upload!.bytes);
      try {
        const media = await probe(file);
        expect(media.streams.find((stream) => stream.codec_type === 'video')).toMatchObject({ codec_name: 'h264', height: 360 });
        expect(media.streams.some((stream) => stream.codec_type === 'audio')).toBe(true);
        expect(media.duration).toBeCloseTo(long.duration_seconds, 0);
      } finally {
        fs.rmSync(file, { force: true });
      }
      expect(fixture.generates).toHaveLength(1);
      expect(fixture.generates[0]).toMatchObject({ model: 'gemini-fixture', key: KEY, mediaResolution: 'MEDIA_RESOLUTION_LOW' });
      expect(fixture.generates[0]!.text).toContain('Describe the pictures.');
      expect(fixture.generates[0]!.text).toContain(long.title);
      expect(fixture.generates[0]!.text).toContain('Transcript (captions by the uploader):');
      expect(fixture.fileLooks).toBeGreaterThanOrEqual(2); // PROCESSING, then ACTIVE

      // The upload handle is the 2-hour cache: a repeat asks with the same file.
      const again = await analyse(service, long, 'And the sound?');
      expect(again).toMatchObject({ status: 'completed', cached: true, submittedCached: true });
      expect(fixture.uploads).toHaveLength(1);
      expect(fixture.generates[1]!.fileUri).toBe(fixture.generates[0]!.fileUri);

      // default is a new upload at 720p, asked at the API's default resolution; it then serves low too.
      expect(await analyse(service, long, 'In detail?', 'default')).toMatchObject({ status: 'completed', cached: false, submittedCached: false });
      expect(fixture.uploads).toHaveLength(2);
      fs.writeFileSync(file, fixture.uploads[1]!.bytes);
      try {
        expect((await probe(file)).streams.find((stream) => stream.codec_type === 'video')?.height).toBe(720);
      } finally {
        fs.rmSync(file, { force: true });
      }
      expect(fixture.generates[2]!.mediaResolution).toBeUndefined();
      expect(await analyse(service, long, 'Quickly?')).toMatchObject({ status: 'completed', cached: true });
      expect(fixture.uploads).toHaveLength(2);

      // A file the API no longer has is uploaded again.
      fixture.forgetFiles();
      expect(await analyse(service, long, 'Once more?')).toMatchObject({ status: 'completed', submittedCached: true, cached: false });
      expect(fixture.uploads).toHaveLength(3);
    }, HEAVY_MS);

    it('ends the job failed naming the provider and the cause for each way the chat API fails, never showing the key', async () => {
      useChatModel();
      const service = get().as('starter');
      const label = `openai-compatible at ${new URL(fixture.chatBaseUrl).host}, model ${MODEL}`;
      // Frames are sampled once; each case below only calls the model.
      expect((await analyse(service, short, 'Warm up.')).status).toBe('completed');
      const cases: Array<[string, () => void, RegExp, Record<string, string>?]> = [
        ['401', () => fixture.failNext('chat', { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}. You can find your API key at https://example.invalid.`, type: 'invalid_request_error', code: 'invalid_api_key' } } }), /refused the API key \(HTTP 401\): Incorrect API key provided: \[redacted\]/],
        ['429 asking for an hour', () => fixture.failNext('chat', { status: 429, headers: { 'retry-after': '3600' }, body: { error: { message: 'Rate limit reached for requests', type: 'requests' } } }), /rate limiting requests \(HTTP 429\) and asks to wait 3600 s, longer than tubekit waits \(60 s\): Rate limit reached/],
        ['429 that stays', () => fixture.failNext('chat', { status: 429, headers: { 'retry-after-ms': '200' }, body: { error: { message: 'Rate limit reached. Please try again in 200ms.' } } }, 3), /still rate limiting requests \(HTTP 429\) after 3 tries/],
        ['5xx', () => fixture.failNext('chat', { status: 503, body: 'upstream connect error' }, 3), /server error \(HTTP 503\) 3 times: upstream connect error/],
        ['refusal', () => fixture.failNext('chat', { status: 200, body: { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'I can\'t help with that.' }, finish_reason: 'stop' }] } }), /declined to analyse the video \(a refusal\): I can't help with that/],
        ['safety stop', () => fixture.failNext('chat', { status: 200, body: { choices: [{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }] } }), /safety block \(finish_reason content_filter\)/],
        ['not JSON', () => fixture.failNext('chat', { status: 200, body: '<html>502 Bad Gateway</html>' }), /answered with something that is not a chat completion \(JSON\): <html>502 Bad Gateway<\/html>/],
        ['no choices', () => fixture.failNext('chat', { status: 200, body: { object: 'chat.completion', choices: [] } }), /answered without any choice/],
        ['timeout', () => fixture.hangNext('chat'), /did not answer the chat completion within 1 s.*TUBEKIT_ANALYSIS_TIMEOUT/, { TUBEKIT_ANALYSIS_TIMEOUT: '1' }],
        ['unknown model', () => fixture.failNext('chat', { status: 404, body: { error: { message: `The model \`${MODEL}\` does not exist` } } }), /HTTP 404.*does not exist.*analysis\.model/],
      ];
      for (const [name, arrange, message, extra] of cases) {
        useChatModel(extra);
        arrange();
        const job = await analyse(service, short, 'Summarize it.');
        expect(job.status, name).toBe('failed');
        expect(job.error, name).toMatch(new RegExp(`^Video analysis failed: the vision model \\(${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) `));
        expect(job.error, name).toMatch(message);
        expect(job.error_message, name).toBe(job.error);
        expect(JSON.stringify(job), name).not.toContain(KEY);
        expect(job).not.toHaveProperty('analysis_text');
      }
      // Retries honour the hint: a 429 asking for 1 s, then an answer.
      useChatModel();
      fixture.failNext('chat', { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached' } } });
      const started = Date.now();
      expect(await analyse(service, short, 'Summarize it.')).toMatchObject({ status: 'completed' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(storedBytes(get().engine.dataDir)).not.toContain(KEY);
    }, HEAVY_MS);

    it('ends the job failed for Gemini\'s refusals, safety blocks, bad keys and rate limits, honouring its RetryInfo', async () => {
      useGemini();
      const service = get().as('starter');
      expect((await analyse(service, short, 'Warm up.')).status).toBe('completed');
      const cases: Array<[string, () => void, RegExp]> = [
        ['blocked prompt', () => fixture.failNext('generate', { status: 200, body: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } } }), /declined the request \(blocked, reason PROHIBITED_CONTENT\)/],
        ['safety finish', () => fixture.failNext('generate', { status: 200, body: { candidates: [{ finishReason: 'SAFETY', index: 0 }] } }), /safety block \(finishReason SAFETY\)/],
        ['bad key', () => fixture.failNext('file', { status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } } }), /refused the state of the uploaded video \(HTTP 400\): API key not valid/],
        ['quota', () => fixture.failNext('generate', { status: 429, body: { error: { code: 429, message: 'You exceeded your current quota.', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '120s' }] } } }), /HTTP 429\) and asks to wait 120 s.*You exceeded your current quota/],
        ['5xx', () => fixture.failNext('generate', { status: 500, body: { error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } } }, 3), /server error \(HTTP 500\) 3 times: An internal error has occurred/],
      ];
      for (const [name, arrange, message] of cases) {
        arrange();
        const job = await analyse(service, short, 'Summarize it.');
        expect(job.status, name).toBe('failed');
        expect(job.error, name).toMatch(/^Video analysis failed: the vision model \(gemini at 127\.0\.0\.1:\d+, model gemini-fixture\) /);
        expect(job.error, name).toMatch(message);
        expect(JSON.stringify(job)).not.toContain(KEY);
      }
      fixture.failNext('generate', { status: 429, body: { error: { code: 429, message: 'Slow down.', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }] } } });
      expect(await analyse(service, short, 'Summarize it.')).toMatchObject({ status: 'completed', cached: true });
      expect(fixture.uploads).toHaveLength(1);
      expect(fixture.raw.some((request) => request.url.includes(KEY))).toBe(false);
      expect(storedBytes(get().engine.dataDir)).not.toContain(KEY);
    }, HEAVY_MS);

    it('fails the job with what is wrong when the configuration is not usable', async () => {
      const service = get().as('starter');
      for (const [settings, message] of [
        [{ TUBEKIT_ANALYSIS_PROVIDER: 'claude' }, /provider "claude" \(TUBEKIT_ANALYSIS_PROVIDER\) is not one tubekit knows\. Use one of: openai-compatible, gemini\./],
        [{ TUBEKIT_ANALYSIS_PROVIDER: 'gemini' }, /gemini vision model at generativelanguage\.googleapis\.com needs an API key, and none is set/],
        [{ TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: 'http://127.0.0.1:11434/v1' }, /No vision model is named for openai-compatible at 127\.0\.0\.1:11434/],
      ] as const) {
        for (const name of Object.keys(env)) delete env[name];
        Object.assign(env, settings);
        const job = await analyse(service, short, 'Summarize it.');
        expect(job.status).toBe('failed');
        expect(job.error).toMatch(/^Video analysis failed: the vision model is not configured correctly where the engine runs\./);
        expect(job.error).toMatch(message);
      }
      expect(fixture.chats).toHaveLength(0);
      // And with none at all, the sample world's stand-in answers again.
      for (const name of Object.keys(env)) delete env[name];
      expect((await analyse(service, short, 'Summarize it.')).analysis_text).toMatch(/^\[Sample world\]/);
    });
  },
  // Retries of a 5xx pause 50 ms then 100 ms here, not 1 s then 2 s: the cases are about what ends the job.
  { world: { seed: 4, channels: 200, terminated: 0 }, analysisSettings: { env }, jobTiming: { modelRetryMs: 50 }, postgres: true },
);
