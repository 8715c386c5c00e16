/**
 * Piper voices in the stealth catalog, on both engines, spoken through the real sherpa-onnx
 * runtime with a tiny voice the test builds: listed beside the eSpeak voices with language, size
 * and licence from its config, generated into an MP3 whose SRT cues cover the audio sentence by
 * sentence, and gone from the catalog once uninstalled.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPiperVoice, uninstallPiperVoice } from '../../src/engine/speech/piper/piper-voices.js';
import { finished, readAll, srtSeconds as seconds } from '../support/task-jobs.js';
import { describeEachEngine, failure } from '../support/engines.js';
import { canMakePiperVoice, makePiperVoice } from '../support/piper/piper-voice.js';

const VOICE = 'piper-en_US-test-x_low';
const SCRIPT = 'The river keeps moving. So do we! Every morning brings a new chance to begin again.';

let made: string;
beforeAll(() => {
  if (!canMakePiperVoice()) return;
  made = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-piper-'));
  makePiperVoice(made);
});
afterAll(() => {
  if (made) fs.rmSync(made, { recursive: true, force: true });
});

// Under CI the voice must be buildable (.ci/run installs python3-onnx): a missing tool fails, never skips.
describe.runIf(canMakePiperVoice() || process.env.CI === 'true')('Piper voices (needs /usr/bin/python3 with onnx to build the test voice)', () => {
  describeEachEngine('Piper voices in the stealth catalog', (get) => {
    it('lists an installed voice beside the eSpeak ones, with its language, size and licence', async () => {
      const model = fs.readFileSync(path.join(made, 'en_US-test-x_low.onnx'));
      installPiperVoice(get().engine.filesDir, 'en_US-test-x_low', model, fs.readFileSync(`${path.join(made, 'en_US-test-x_low.onnx')}.json`, 'utf8'), 'x.onnx.json');
      const { voices } = await get().as('professional').call('voices.stealth.list', {});
      expect(voices.find((voice) => voice.voice_id === VOICE)).toEqual({
        voice_id: VOICE,
        name: 'en_US-test-x_low',
        language: 'en',
        description: expect.stringMatching(/^Piper voice \(English\), 0\.0 MB, licence: CC0-1\.0 \(test voice\)$/),
        tags: ['piper'],
        is_cloned: false,
      });
      expect(voices.some((voice) => voice.voice_id === 'espeak-en-us')).toBe(true);
    });

    it('speaks through sherpa-onnx into an MP3 whose SRT cues cover the audio, sentence by sentence', async () => {
      const service = get().as('professional');
      const job = await finished(service, (await service.call('generate', { script: SCRIPT, voice_id: VOICE })).job_id);
      expect(job).toMatchObject({ status: 'completed', provider: 'stealth', voice_id: VOICE });
      expect(job.error).toBeUndefined();
      expect(job.upstream_characters).toBeUndefined();
      const mp3 = await readAll(await service.fetchFile(job.audio_url!));
      const meta = await parseBuffer(mp3, { mimeType: 'audio/mpeg', size: mp3.length }, { duration: true });
      expect(meta.format.sampleRate).toBe(16_000);
      expect(job.audio_duration_seconds!).toBeGreaterThan(1);
      expect(Math.abs(meta.format.duration! - job.audio_duration_seconds!)).toBeLessThan(0.15);

      const cues = (await readAll(await service.fetchFile(job.transcript_url!))).toString('utf8').trim().split('\n\n').map((cue) => cue.split('\n'));
      expect(cues.map((cue) => cue[2])).toEqual(SCRIPT.split(' '));
      const times = cues.map((cue) => cue[1]!.split(' --> ').map(seconds) as [number, number]);
      expect(times[0]![0]).toBe(0);
      for (let i = 1; i < times.length; i++) expect(Math.abs(times[i]![0] - times[i - 1]![1])).toBeLessThanOrEqual(0.002);
      expect(Math.abs(times.at(-1)![1] - job.audio_duration_seconds!)).toBeLessThan(0.01);
    });

    it('refuses a Piper voice that is not installed, and forgets one that is uninstalled', async () => {
      const service = get().as('professional');
      expect((await failure(service.call('generate', { script: 'Hi.', voice_id: 'piper-nobody' }))).status).toBe(400);
      expect(uninstallPiperVoice(get().engine.filesDir, VOICE)).toBe(true);
      expect((await service.call('voices.stealth.list', {})).voices.map((voice) => voice.voice_id)).not.toContain(VOICE);
      expect((await failure(service.call('generate', { script: 'Hi.', voice_id: VOICE }))).status).toBe(400);
    });
  });
});
