/**
 * ElevenLabs through the operator's key, on both engines (in-process, and the remote client
 * through serve), the provider played by a fixture API on 127.0.0.1 that checks what it receives:
 * the catalog in the hosted shape, generation through text-to-speech with timestamps (long
 * scripts in parts at sentence ends, stitched, the SRT from the alignment), instant clones and
 * their deletion; then every way the provider fails, with nothing saved and the key kept out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { filesUnder, mp3Sample, upload } from '../support/audio-fixtures.js';
import { PREMADE_VOICES, startElevenLabsFixture, type ElevenLabsFixture } from '../support/elevenlabs-fixture-server.js';
import { finished, readAll, srtSeconds as cueSeconds } from '../support/task-jobs.js';
import { describeEachEngine, failure } from '../support/engines.js';

/** The engine's own environment, filled per test: the engine reads it at each use. */
const env: NodeJS.ProcessEnv = {};
let fixture: ElevenLabsFixture;

beforeAll(async () => {
  fixture = await startElevenLabsFixture();
}, 60_000);
afterAll(async () => {
  await fixture.close();
});

function useElevenLabs(extra: Record<string, string> = {}) {
  for (const name of Object.keys(env)) delete env[name];
  Object.assign(env, { TUBEKIT_ELEVENLABS_API_KEY: fixture.key, TUBEKIT_ELEVENLABS_BASE_URL: fixture.baseUrl, ...extra });
}

/** Sentences of about 70 characters, numbered so every part of a split is different text. */
const script = (sentences: number) =>
  Array.from({ length: sentences }, (_, index) => `Sentence number ${index + 1} tells the story of a river that keeps on moving.`).join(' ');

const SARAH = PREMADE_VOICES[0]!.voice_id;

describeEachEngine(
  'ElevenLabs voices through the operator\'s key',
  (get) => {
    beforeEach(() => {
      useElevenLabs();
      fixture.reset();
    });

    it('lists the account\'s catalog in the hosted shape, filtered, sorted and paged, and reads it once a minute at most', async () => {
      const service = get().as('professional');
      const all = await service.call('voices.catalog', { page_size: 100 });
      expect(all.has_more).toBe(false);
      expect(all.voices.map((voice) => voice.name)).toEqual(['Sarah', 'George', 'Matilda', 'Lily', 'Antoni']);
      expect(all.voices[0]).toEqual({
        voice_id: SARAH,
        name: 'Sarah',
        gender: 'female',
        accent: 'american',
        age: 'young',
        language: 'en',
        use_case: 'news',
        description: 'Soft news voice',
        preview_url: 'https://cdn.example/sarah.mp3',
        category: 'premade',
        is_cloned: false,
      });
      const names = async (query: Record<string, unknown>) => (await service.call('voices.catalog', query as never)).voices.map((voice) => voice.name);
      expect(await names({ gender: 'female', accent: 'British' })).toEqual(['Lily']);
      expect(await names({ language: 'Spanish' })).toEqual(['Antoni']);
      expect(await names({ search: 'narrat' })).toEqual(['George', 'Matilda', 'Lily']);
      expect(await names({ sort: 'name' })).toEqual(['Antoni', 'George', 'Lily', 'Matilda', 'Sarah']);
      expect(await names({ sort: 'newest' })).toEqual(['Matilda', 'George', 'Lily', 'Sarah', 'Antoni']);
      const first = await service.call('voices.catalog', { sort: 'name', page: 0, page_size: 2 });
      const last = await service.call('voices.catalog', { sort: 'name', page: 2, page_size: 2 });
      expect([first.voices.map((voice) => voice.name), first.has_more]).toEqual([['Antoni', 'George'], true]);
      expect([last.voices.map((voice) => voice.name), last.has_more]).toEqual([['Sarah'], false]);
      expect(fixture.voiceListReads).toBeLessThanOrEqual(1);
      expect((await failure(service.call('voices.catalog', { page_size: 101 }))).message).toMatch(/page_size: must be an integer from 1 to 100/);
      expect(fixture.raw.every((request) => request.headers['xi-api-key'] === fixture.key)).toBe(true);
    });

    it('keeps on a job that fails at a later part the characters of the parts already spoken', async () => {
      const service = get().as('ultimate');
      const before = fixture.speeches.length;
      fixture.failAfter('speech', 1, { status: 422, body: { detail: { status: 'invalid_text', message: 'The text could not be read' } } });
      const submitted = await service.call('generate', { script: script(100), voice_id: SARAH, provider: 'elevenlabs', model_id: 'eleven_v3' });
      const job = await finished(service, submitted.job_id);
      expect([job.status, job.error]).toEqual(['failed', expect.stringMatching(/HTTP 422\): The text could not be read/)]);
      const spoken = fixture.speeches.slice(before);
      expect(spoken).toHaveLength(1);
      expect(job.upstream_characters).toEqual([[...spoken[0]!.text].length]);
      expect(job.audio_url).toBeUndefined();
      expect(job.transcript_url).toBeUndefined();
      // A failure at the first part spent nothing: no count at all.
      fixture.failNext('speech', { status: 422, body: { detail: { status: 'invalid_text', message: 'The text could not be read' } } });
      const first = await finished(service, (await service.call('generate', { script: script(4), voice_id: SARAH, provider: 'elevenlabs' })).job_id);
      expect(first.status).toBe('failed');
      expect(first.upstream_characters).toBeUndefined();
    });

    it('speaks a long script in parts cut at sentence ends, stitched into one MP3, with the SRT from the alignment', async () => {
      const service = get().as('ultimate');
      const text = script(100); // about 7,700 characters: three parts for eleven_v3 (3,000 each)
      const submitted = await service.call('generate', {
        script: text,
        voice_id: SARAH,
        provider: 'elevenlabs',
        model_id: 'eleven_v3',
        stability: 0.4,
        similarity_boost: 0.8,
        style: 0.1,
        speed: 1.1,
        generate_srt: true,
      });
      const job = await finished(service, submitted.job_id);
      expect(job).toMatchObject({ status: 'completed', provider: 'elevenlabs', voice_id: SARAH });
      expect(fixture.violations).toEqual([]);

      const parts = fixture.speeches;
      expect(parts.length).toBe(3);
      expect(parts.map((part) => part.text).join('')).toBe(text);
      for (const part of parts) {
        expect([...part.text].length).toBeLessThanOrEqual(3000);
        expect(part.text.trimEnd()).toMatch(/moving\.$/);
        expect(part).toMatchObject({ modelId: 'eleven_v3', outputFormat: 'mp3_44100_128', voiceSettings: { stability: 0.4, similarity_boost: 0.8, style: 0.1, speed: 1.1 } });
      }
      expect([parts[0]!.previousText, parts[1]!.previousText, parts[2]!.nextText]).toEqual([undefined, parts[0]!.text, undefined]);
      expect(job.upstream_characters).toEqual(parts.map((part) => [...part.text].length));

      const mp3 = await readAll(await service.fetchFile(job.audio_url!));
      const meta = await parseBuffer(mp3, { mimeType: 'audio/mpeg', size: mp3.length }, { duration: true });
      expect(meta.format.codec).toMatch(/Layer 3/);
      const spoken = parts.reduce((sum, part) => sum + part.ends.at(-1)!, 0);
      expect(meta.format.duration!).toBeGreaterThanOrEqual(spoken);
      expect(meta.format.duration!).toBeLessThan(spoken + 0.3);

      // Each word's cue is its characters' alignment, moved by the length of the parts before it.
      const srt = (await readAll(await service.fetchFile(job.transcript_url!))).toString('utf8');
      const cues = srt.trim().split('\n\n').map((cue) => cue.split('\n'));
      expect(cues.map((cue) => cue[2])).toEqual(text.split(' '));
      let offset = 0;
      let word = 0;
      for (const part of parts) {
        let at = 0;
        for (const token of part.text.split(' ')) {
          if (!token) {
            at += 1;
            continue;
          }
          const [start, end] = cues[word]![1]!.split(' --> ').map(cueSeconds);
          expect(Math.abs(start! - (offset + part.starts[at]!))).toBeLessThan(0.05);
          expect(Math.abs(end! - (offset + part.ends[at + [...token].length - 1]!))).toBeLessThan(0.05);
          at += [...token].length + 1;
          word += 1;
        }
        // The next part starts where this one's audio ends (whole frames of 1152 samples).
        offset += (Math.ceil((part.ends.at(-1)! * 44_100) / 1152) + 1) * (1152 / 44_100);
      }
    });

    it('keeps the hosted defaults: eleven_multilingual_v2, the voice\'s own settings, and no SRT unless asked', async () => {
      const service = get().as('professional');
      const job = await finished(service, (await service.call('generate', { script: script(4), voice_id: SARAH, provider: 'elevenlabs' })).job_id);
      expect(job.status).toBe('completed');
      expect(job.transcript_url).toBeUndefined();
      expect(fixture.speeches).toHaveLength(1);
      expect(fixture.speeches[0]).toMatchObject({ modelId: 'eleven_multilingual_v2', voiceSettings: undefined });
    });

    it('refuses what ElevenLabs cannot take before anything is queued, naming the field', async () => {
      const service = get().as('professional');
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ script: 'Too short.', voice_id: SARAH }, /script: Text must be at least 200 characters/],
        [{ script: script(4), voice_id: SARAH, speed: 1.5 }, /speed: must be a number from 0.7 to 1.2 for provider elevenlabs/],
        [{ script: script(4), voice_id: SARAH, stability: 1.5 }, /stability: must be a number from 0 to 1/],
        [{ script: script(4), voice_id: SARAH, speaking_rate: 1.2 }, /speaking_rate: belongs to provider stealth, not elevenlabs/],
        [{ script: script(4), voice_id: SARAH, pitch: 2 }, /pitch: belongs to provider alt, not elevenlabs/],
        [{ script: script(4), voice_id: 'no-such-voice' }, /voice_id: "no-such-voice" is not a voice of the ElevenLabs catalog/],
      ];
      for (const [input, message] of cases) {
        const refused = await failure(service.call('generate', { provider: 'elevenlabs', ...input } as never));
        expect([refused.status, refused.message]).toEqual([400, expect.stringMatching(message)]);
      }
      const wrongWay = await failure(service.call('generate', { script: 'Hi.', voice_id: 'espeak-en-us', stability: 0.5 } as never));
      expect(wrongWay.message).toMatch(/stability: belongs to provider elevenlabs, not stealth/);
      expect(fixture.speeches).toEqual([]);
      expect((await service.call('jobs.list', { kind: 'generation' })).count).toBe(0);
    });

    it('answers 503 saying how to configure ElevenLabs when the engine has no key; stealth keeps working', async () => {
      for (const name of Object.keys(env)) delete env[name];
      const service = get().as('professional');
      const catalog = await failure(service.call('voices.catalog', {}));
      expect([catalog.status, catalog.code]).toEqual([503, 'unavailable']);
      expect(catalog.message).toMatch(/ElevenLabs is not configured.*TUBEKIT_ELEVENLABS_API_KEY/);
      expect((await failure(service.call('generate', { script: script(4), voice_id: SARAH, provider: 'elevenlabs' }))).status).toBe(503);
      expect((await finished(service, (await service.call('generate', { script: 'Still here.', voice_id: 'espeak-en-us' })).job_id)).status).toBe('completed');
      expect(fixture.raw).toEqual([]);
    });

    it('clones a voice at ElevenLabs for its owner only, and deletes it there', async () => {
      const owner = get().as('professional');
      const other = get().as('professional');
      const sample = await mp3Sample(12);
      const cloned = await owner.call('voices.elevenlabs.clone', { voice_name: 'Narrator', audio_file: upload(sample, 'me.mp3', 'audio/mpeg'), description: 'Mine', remove_background_noise: true });
      expect(cloned).toEqual({ success: true, voice: { voice_id: expect.stringMatching(/^clonedVoice/), name: 'Narrator', is_cloned: true } });
      expect(fixture.clones).toEqual([{ name: 'Narrator', files: [{ name: 'me.mp3', type: 'audio/mpeg', bytes: sample.length }], removeBackgroundNoise: 'true' }]);

      const id = cloned.voice.voice_id;
      const mine = (await owner.call('voices.catalog', { page_size: 100 })).voices.find((voice) => voice.voice_id === id);
      expect(mine).toMatchObject({ name: 'Narrator', category: 'cloned', is_cloned: true });
      expect((await other.call('voices.catalog', { page_size: 100 })).voices.map((voice) => voice.voice_id)).not.toContain(id);
      expect((await failure(other.call('generate', { script: script(4), voice_id: id, provider: 'elevenlabs' }))).status).toBe(400);
      expect((await finished(owner, (await owner.call('generate', { script: script(4), voice_id: id, provider: 'elevenlabs' })).job_id)).status).toBe('completed');

      expect((await failure(other.call('voices.elevenlabs.delete', { voice_id: id }))).status).toBe(404);
      expect((await failure(owner.call('voices.elevenlabs.delete', { voice_id: SARAH }))).status).toBe(404);
      expect(await owner.call('voices.elevenlabs.delete', { voice_id: id })).toEqual({ success: true });
      expect(fixture.deleted).toEqual([id]);
      expect((await owner.call('voices.catalog', { page_size: 100 })).voices.map((voice) => voice.voice_id)).not.toContain(id);
    });

    it('answers a refused clone with 502 and the provider\'s reason, keeping nothing', async () => {
      const service = get().as('professional');
      const samplesBefore = filesUnder(path.join(get().engine.filesDir, 'samples')).length;
      fixture.failNext('add', { status: 400, body: { detail: { status: 'voice_limit_reached', message: 'You have reached your maximum amount of custom voices' } } });
      const refused = await failure(service.call('voices.elevenlabs.clone', { voice_name: 'Nope', audio_file: upload(await mp3Sample(5), 'a.mp3', 'audio/mpeg') }));
      expect([refused.status, refused.code]).toEqual([502, 'upstream_error']);
      expect(refused.message).toMatch(/ElevenLabs .* refused the voice clone \(HTTP 400\): You have reached your maximum amount of custom voices/);
      expect(filesUnder(path.join(get().engine.filesDir, 'samples')).length).toBe(samplesBefore);
      expect((await service.call('voices.catalog', { page_size: 100 })).voices.filter((voice) => voice.is_cloned)).toEqual([]);
    });

    it('fails the job with the provider\'s reason on every kind of failure, storing no audio and never the key', async () => {
      useElevenLabs({ TUBEKIT_ELEVENLABS_TIMEOUT: '1' });
      const service = get().as('ultimate');
      const cdn = path.join(get().engine.filesDir, 'cdn');
      const filesBefore = filesUnder(cdn).length;
      await service.call('voices.catalog', {}); // the catalog is read before the failures are queued
      const run = async () => finished(service, (await service.call('generate', { script: script(4), voice_id: SARAH, provider: 'elevenlabs' })).job_id);
      const cases: Array<[() => void, RegExp]> = [
        [() => fixture.failNext('speech', { status: 401, body: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } } }), /refused the API key \(HTTP 401\): Invalid API key\. Check TUBEKIT_ELEVENLABS_API_KEY/],
        [() => fixture.failNext('speech', { status: 429, headers: { 'retry-after': '120' }, body: { detail: { status: 'too_many_concurrent_requests', message: 'Too many requests' } } }), /rate limiting requests \(HTTP 429\) and asks to wait 120 s/],
        [() => fixture.failNext('speech', { status: 503, body: 'upstream busy' }, 3), /server error \(HTTP 503\) 3 times: upstream busy/],
        [() => fixture.failNext('speech', { status: 200, body: '<html>oops</html>' }), /answered with something that is not JSON with audio and its alignment: <html>oops/],
        [() => fixture.failNext('speech', { status: 200, body: { audio_base64: Buffer.from('not an mp3').toString('base64'), alignment: { characters: ['a'], character_start_times_seconds: [0], character_end_times_seconds: [0.1] } } }), /audio that is not MP3/],
        [() => fixture.failNext('speech', { status: 200, body: { audio_base64: '' } }), /without audio_base64 and a character alignment/],
        [() => fixture.hangNext('speech'), /did not answer the speech within 1 s/],
      ];
      for (const [arrange, reason] of cases) {
        arrange();
        const job = await run();
        expect([job.status, job.error]).toEqual(['failed', expect.stringMatching(reason)]);
        expect(job.error).not.toContain(fixture.key);
        expect(job.audio_url).toBeUndefined();
      }
      expect(filesUnder(cdn).length).toBe(filesBefore);

      // A short 429 is waited out, as the provider asks.
      fixture.failNext('speech', { status: 429, headers: { 'retry-after': '1' }, body: { detail: { status: 'too_many_concurrent_requests', message: 'slow down' } } });
      expect((await run()).status).toBe('completed');
      const db = ['tubekit.db', 'tubekit.db-wal'].map((name) => path.join(get().engine.dataDir, name)).filter((file) => fs.existsSync(file));
      for (const file of db) expect(fs.readFileSync(file).toString('latin1')).not.toContain(fixture.key);
    }, 90_000);
  },
  { speechSettings: { env }, jobTiming: { modelRetryMs: 50 } },
);
