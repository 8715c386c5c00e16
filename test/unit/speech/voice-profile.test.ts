import { describe, expect, it } from 'vitest';
import {
  decodeToPcm,
  deriveVoiceProfile,
  encodeMp3,
  encodeWav,
  espeakPitchForHz,
  ffmpegAvailable,
  FFMPEG_DECODE_RATE,
  hzForEspeakPitch,
  inspectAudioSample,
  measurePitchHz,
  fitSpeakingRate,
  speechSpanSeconds,
  synthesize,
} from '../../../src/engine/speech/index.js';
import { harmonicTone, toInt16, whiteNoise } from './helpers.js';

const hasFfmpeg = await ffmpegAvailable();

function withSilence(signal: Float32Array, sampleRate: number, before: number, after: number): Float32Array {
  const out = new Float32Array(signal.length + Math.round((before + after) * sampleRate));
  out.set(signal, Math.round(before * sampleRate));
  return out;
}

describe('measurePitchHz', () => {
  it.each([
    [150, 16000],
    [220, 16000],
    [150, 44100],
    [220, 22050],
  ])('finds %i Hz in a harmonic tone at %i Hz sampling', (f0, rate) => {
    const tone = harmonicTone(f0, rate, 1.5, 0.6);
    const hz = measurePitchHz(tone, rate)!;
    expect(hz).toBeGreaterThan(f0 * 0.9);
    expect(hz).toBeLessThan(f0 * 1.1);
    expect(measurePitchHz(toInt16(tone), rate)!).toBeCloseTo(hz, 3);
  });

  it('ignores silence around the voice and a weak noise floor', () => {
    const rate = 16000;
    const voiced = withSilence(harmonicTone(150, rate, 1, 0.5), rate, 1, 1);
    const noise = whiteNoise(voiced.length, 0.003);
    for (let i = 0; i < voiced.length; i++) voiced[i] += noise[i];
    const hz = measurePitchHz(voiced, rate)!;
    expect(Math.abs(hz - 150)).toBeLessThan(15);
  });

  it('returns null for silence, noise and too-short input', () => {
    expect(measurePitchHz(new Float32Array(32000), 16000)).toBeNull();
    expect(measurePitchHz(whiteNoise(32000, 0.5), 16000)).toBeNull();
    expect(measurePitchHz(harmonicTone(150, 16000, 0.01), 16000)).toBeNull();
  });
});

describe('deriveVoiceProfile', () => {
  it('fits eSpeak\'s rate so it says the transcription in the sample\'s time; without one, the default', async () => {
    const transcription = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const profile = await deriveVoiceProfile({ pcm: null, sampleRate: 16000, durationSeconds: 10, transcription, langCode: 'EN_US' });
    expect(profile).toMatchObject({ baseVoice: 'en-us', pitch: 50, measuredPitchHz: null, gender: null });
    const spoken = await synthesize(transcription, { voice: 'en-us', rate: profile.rate });
    expect(speechSpanSeconds(spoken.samples, spoken.sampleRate)!).toBeCloseTo(10, 0);
    const noText = await deriveVoiceProfile({ pcm: null, sampleRate: 16000, durationSeconds: 10, langCode: 'FR_FR' });
    expect(noText.rate).toBe(175);
    expect(noText.baseVoice).toBe('fr');
    // Clamped to eSpeak's 80-450.
    expect(await fitSpeakingRate('one two', 60, 'en-us')).toBe(80);
    expect(await fitSpeakingRate('a b c d e f g h i j k l m n o p', 0.5, 'en-us')).toBe(450);
    expect(await fitSpeakingRate('   ', 10, 'en-us')).toBeUndefined();
    // Languages written without spaces have a pace too.
    expect(await fitSpeakingRate('今日はとても良い天気ですね', 2, 'ja')).toBeGreaterThan(80);
  });

  it('measures the pace over the speech, not the surrounding silence', async () => {
    const rate = 16000;
    const text = 'one two three four five six';
    const pcm = withSilence(harmonicTone(120, rate, 2, 0.5), rate, 1.5, 1.5);
    const profile = await deriveVoiceProfile({ pcm, sampleRate: rate, durationSeconds: 5, transcription: text, langCode: 'EN_US' });
    // Said in 2 s of sound, not the 5 s of the file.
    const spoken = await synthesize(text, { voice: profile.baseVoice, rate: profile.rate });
    expect(speechSpanSeconds(spoken.samples, spoken.sampleRate)!).toBeCloseTo(2, 0);
    expect(profile.gender).toBe('male');
  });

  it('picks a female base voice and a matching pitch for a high voice', async () => {
    const pcm = harmonicTone(220, 16000, 2, 0.5);
    const profile = await deriveVoiceProfile({ pcm, sampleRate: 16000, durationSeconds: 2, langCode: 'DE_DE' });
    expect(profile.gender).toBe('female');
    expect(profile.baseVoice).toBe('de+f3');
    expect(profile.measuredPitchHz!).toBeCloseTo(220, -1);
    expect(profile.pitch).toBe(espeakPitchForHz(220, 'female'));
    expect(profile.pitch).toBeGreaterThan(50);
    expect(profile.pitch).toBeLessThan(70);
    expect(espeakPitchForHz(40, 'male')).toBe(0);
    for (const gender of ['male', 'female'] as const) {
      for (const setting of [0, 25, 50, 77, 99]) expect(espeakPitchForHz(hzForEspeakPitch(setting, gender), gender)).toBe(setting);
    }
    expect(espeakPitchForHz(600, 'female')).toBe(99);
  });

  it('recovers the pitch setting of eSpeak speech (round trip)', async () => {
    const text = 'She sells sea shells by the sea shore, and the shells she sells are surely seashells.';
    for (const [voice, pitch, expectedBase] of [
      ['es', 30, 'es'],
      ['es+f3', 70, 'es+f3'],
    ] as const) {
      const speech = await synthesize(text, { voice, pitch });
      const profile = await deriveVoiceProfile({ pcm: speech.samples, sampleRate: speech.sampleRate, durationSeconds: 0, langCode: 'ES_ES' });
      expect(profile.baseVoice).toBe(expectedBase);
      expect(Math.abs(profile.pitch - pitch)).toBeLessThanOrEqual(8);
    }
  });
});

describe('decodeToPcm', () => {
  it('decodes WAV natively', async () => {
    const wav = encodeWav(toInt16(harmonicTone(150, 8000, 1, 0.5)), 8000);
    const pcm = (await decodeToPcm(wav, 'wav'))!;
    expect(pcm.decoder).toBe('wav');
    expect(pcm.sampleRate).toBe(8000);
    expect(pcm.samples.length).toBe(8000);
    expect((await decodeToPcm(wav, 'wav', { maxSeconds: 0.5 }))!.samples.length).toBe(4000);
  });

  it.skipIf(!hasFfmpeg)('decodes MP3 with ffmpeg to 16 kHz mono, keeping the pitch', async () => {
    const mp3 = await encodeMp3(toInt16(harmonicTone(150, 22050, 2, 0.5)), 22050);
    const pcm = (await decodeToPcm(mp3, 'mp3'))!;
    expect(pcm.decoder).toBe('ffmpeg');
    expect(pcm.sampleRate).toBe(FFMPEG_DECODE_RATE);
    expect(pcm.samples.length / FFMPEG_DECODE_RATE).toBeGreaterThan(1.95);
    expect(pcm.samples.length / FFMPEG_DECODE_RATE).toBeLessThan(2.2);
    expect(Math.abs(measurePitchHz(pcm.samples, pcm.sampleRate)! - 150)).toBeLessThan(15);

    // The whole clone path: validate, decode, profile.
    const info = await inspectAudioSample(mp3);
    const profile = await deriveVoiceProfile({ pcm: pcm.samples, sampleRate: pcm.sampleRate, durationSeconds: info.durationSeconds, langCode: 'EN_US' });
    expect(profile.gender).toBe('male');
    expect(profile.baseVoice).toBe('en-us');
  });

  it.skipIf(hasFfmpeg)('without ffmpeg, returns null for compressed formats', async () => {
    const mp3 = await encodeMp3(toInt16(harmonicTone(150, 22050, 1, 0.5)), 22050);
    expect(await decodeToPcm(mp3, 'mp3')).toBeNull();
  });
});
