/**
 * Alt voices through MiniMax with the operator's key, on both engines, the provider played by a
 * fixture API on 127.0.0.1: a clone uploads the sample and clones it under a voice id kept as the
 * upstream id; speech goes through t2a with the hosted speed, pitch and volume and is timed by the
 * subtitles MiniMax links; deletion reaches delete_voice. Every failure is the spec's 502 with
 * MiniMax's reason, and nothing is saved.
 */
import path from 'node:path';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { filesUnder, upload, wavSample } from '../support/audio-fixtures.js';
import { finished, readAll } from '../support/task-jobs.js';
import { describeEachEngine, failure } from '../support/engines.js';
import { startMinimaxFixture, type MinimaxFixture } from '../support/minimax-fixture-server.js';

const env: NodeJS.ProcessEnv = {};
let fixture: MinimaxFixture;
let sample: Buffer;

beforeAll(async () => {
  fixture = await startMinimaxFixture();
  sample = wavSample(31);
}, 60_000);
afterAll(async () => {
  await fixture.close();
});

const SCRIPT = 'The river keeps moving. So do we! Every morning brings a new chance to begin again.';

describeEachEngine(
  'alt voices through MiniMax',
  (get) => {
    beforeEach(() => {
      for (const name of Object.keys(env)) delete env[name];
      Object.assign(env, { TUBEKIT_MINIMAX_API_KEY: fixture.key, TUBEKIT_MINIMAX_BASE_URL: fixture.baseUrl, TUBEKIT_MINIMAX_TIMEOUT: '2' });
      fixture.reset();
    });

    it('clones through the files API and voice_clone, speaks through t2a timed by its subtitles, and deletes upstream', async () => {
      const service = get().as('professional');
      const cloned = await service.call('voices.alt.clone', { voice_name: 'Host', audio_file: upload(sample, 'host.wav', 'audio/wav'), language: 'Spanish', need_noise_reduction: false });
      expect(cloned.voice).toMatchObject({ name: 'Host', language: 'Spanish', is_cloned: true });
      expect(fixture.uploads).toEqual([{ purpose: 'voice_clone', name: 'host.wav', bytes: sample.length }]);
      expect(fixture.clones).toEqual([{ fileId: expect.any(Number), voiceId: expect.stringMatching(/^tubekit[0-9a-f]{16}$/), needNoiseReduction: false }]);
      const listed = await service.call('voices.alt.list', {});
      expect(listed.upstream).toBe('minimax');
      expect(listed.voices.map((voice) => voice.voice_id)).toEqual([cloned.voice.voice_id]);

      const job = await finished(service, (await service.call('generate', { script: SCRIPT, voice_id: cloned.voice.voice_id, provider: 'alt', speed: 1.5, pitch: -3, volume: 2 })).job_id);
      expect(job).toMatchObject({ status: 'completed', provider: 'alt', upstream_characters: [SCRIPT.length] });
      expect(fixture.speeches).toHaveLength(1);
      expect(fixture.speeches[0]).toMatchObject({ model: 'speech-02-hd', text: SCRIPT, voiceSetting: { voice_id: fixture.clones[0]!.voiceId, speed: 1.5, vol: 2, pitch: -3 } });

      const mp3 = await readAll(await service.fetchFile(job.audio_url!));
      const meta = await parseBuffer(mp3, { mimeType: 'audio/mpeg', size: mp3.length }, { duration: true });
      expect(meta.format.sampleRate).toBe(32_000);
      const srt = (await readAll(await service.fetchFile(job.transcript_url!))).toString('utf8');
      const cues = srt.trim().split('\n\n').map((cue) => cue.split('\n'));
      expect(cues.map((cue) => cue[2])).toEqual(['The river keeps moving.', 'So do we!', 'Every morning brings a new chance to begin again.']);
      expect(cues[1]![1]).toBe('00:00:00,480 --> 00:00:00,660');
      expect(fixture.violations).toEqual([]);

      expect(await service.call('voices.alt.delete', { voice_id: cloned.voice.voice_id })).toEqual({ success: true });
      expect(fixture.deleted).toEqual([fixture.clones[0]!.voiceId]);
      expect(fixture.raw.filter((request) => request.url.startsWith('/v1/')).every((request) => request.headers.authorization === `Bearer ${fixture.key}`)).toBe(true);
    });

    it('answers 502 upstream_error with MiniMax\'s reason when a clone fails at any step, keeping nothing', async () => {
      const service = get().as('professional');
      const samples = () => filesUnder(path.join(get().engine.filesDir, 'samples')).length;
      const before = samples();
      const cases: Array<[() => void, RegExp]> = [
        [() => fixture.failNext('upload', { status: 200, body: { base_resp: { status_code: 1004, status_msg: 'login fail' } } }), /MiniMax .* refused the upload of the sample \(status_code 1004\): login fail/],
        [() => fixture.failNext('clone', { status: 200, body: { base_resp: { status_code: 1008, status_msg: 'insufficient balance' } } }), /refused the voice clone \(status_code 1008\): insufficient balance/],
        [() => fixture.failNext('clone', { status: 502, body: 'bad gateway' }, 3), /failed the voice clone with a server error \(HTTP 502\) 3 times/],
        [() => fixture.failNext('upload', { status: 429, headers: { 'retry-after': '90' }, body: 'slow down' }), /rate limiting requests \(HTTP 429\) and asks to wait 90 s/],
        [() => fixture.failNext('upload', { status: 200, body: 'not json' }), /answered with something that is not JSON answering the upload of the sample/],
        [() => fixture.hangNext('clone'), /did not answer the voice clone within 2 s/],
      ];
      for (const [arrange, reason] of cases) {
        arrange();
        const refused = await failure(service.call('voices.alt.clone', { voice_name: 'Nope', audio_file: upload(sample, 'a.wav', 'audio/wav') }));
        expect([refused.status, refused.code, refused.message]).toEqual([502, 'upstream_error', expect.stringMatching(reason)]);
        expect(refused.message).not.toContain(fixture.key);
      }
      expect((await service.call('voices.alt.list', {})).voices).toEqual([]);
      expect(samples()).toBe(before);
    }, 60_000);

    it('fails the job with MiniMax\'s reason when speech fails, storing no audio', async () => {
      const service = get().as('professional');
      const voice = (await service.call('voices.alt.clone', { voice_name: 'Host', audio_file: upload(sample, 'host.wav', 'audio/wav') })).voice;
      fixture.failNext('t2a', { status: 200, body: { base_resp: { status_code: 1002, status_msg: 'rate limit exceeded' } } });
      const job = await finished(service, (await service.call('generate', { script: SCRIPT, voice_id: voice.voice_id, provider: 'alt' })).job_id);
      expect([job.status, job.error]).toEqual(['failed', expect.stringMatching(/MiniMax .* refused the speech \(status_code 1002\): rate limit exceeded/)]);
      expect(job.audio_url).toBeUndefined();
    });
  },
  { speechSettings: { env }, jobTiming: { modelRetryMs: 50 } },
);
