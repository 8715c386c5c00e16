/**
 * The degraded path when ffmpeg is not installed, exercised even on machines
 * that have it: FFMPEG_PATH points at nothing before the module first probes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  decodeToPcm,
  deriveVoiceProfile,
  encodeMp3,
  encodeWav,
  ffmpegAvailable,
  inspectAudioSample,
  synthesize,
} from '../../../src/engine/speech/index.js';
import { harmonicTone, toInt16 } from './helpers.js';

const previous = process.env.FFMPEG_PATH;
process.env.FFMPEG_PATH = '/nonexistent/ffmpeg-for-tests';
afterAll(() => {
  if (previous === undefined) delete process.env.FFMPEG_PATH;
  else process.env.FFMPEG_PATH = previous;
});

describe('without ffmpeg', () => {
  it('still validates and measures samples, and decodes WAV', async () => {
    expect(await ffmpegAvailable()).toBe(false);
    const mp3 = await encodeMp3(toInt16(harmonicTone(200, 22050, 2, 0.5)), 22050);
    const info = await inspectAudioSample(mp3);
    expect(info.format).toBe('mp3');
    expect(await decodeToPcm(mp3, 'mp3')).toBeNull();
    const wav = encodeWav(toInt16(harmonicTone(200, 16000, 1, 0.5)), 16000);
    expect((await decodeToPcm(wav, 'wav'))?.decoder).toBe('wav');
  });

  it('falls back to a profile without measured pitch', async () => {
    const mp3 = await encodeMp3(toInt16(harmonicTone(200, 22050, 2, 0.5)), 22050);
    const pcm = await decodeToPcm(mp3, 'mp3');
    const profile = await deriveVoiceProfile({ pcm: pcm?.samples, sampleRate: 22050, durationSeconds: 2, transcription: 'six words are in this sample', langCode: 'IT_IT' });
    expect(profile).toEqual({ baseVoice: 'it', pitch: 50, rate: expect.any(Number), measuredPitchHz: null, gender: null });
    // The pace comes from the file's length when it cannot be decoded: six words in 2 s.
    const spoken = await synthesize('six words are in this sample', { voice: 'it', rate: profile.rate });
    expect(spoken.samples.length / spoken.sampleRate).toBeCloseTo(2, 0);
  });
});
