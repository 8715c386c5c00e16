import { describe, expect, it } from 'vitest';
import { altCloneProfile, stealthCloneProfile } from '../../../src/engine/features/voices/clone-profile.js';
import { reduceNoise } from '../../../src/engine/features/voices/noise-gate.js';
import { encodeWav, inspectAudioSample, speechSpanSeconds, synthesize } from '../../../src/engine/speech/index.js';
import { toInt16, whiteNoise } from '../speech/helpers.js';
import { voicePcm, wavSample } from '../../support/audio-fixtures.js';

const RATE = 8000;

/** 2 s of room noise, 3 s of "speech", 2 s of room noise. */
function noisySpeech(): Buffer {
  const noise = whiteNoise(RATE * 7, 0.08);
  const speech = voicePcm(3, { f0: 130, sampleRate: RATE, amplitude: 0.6 });
  const mixed = new Float32Array(noise);
  for (let i = 0; i < speech.length; i++) mixed[2 * RATE + i] += speech[i]! / 32768;
  return encodeWav(toInt16(mixed), RATE);
}

async function sample(data: Buffer) {
  return { data, info: await inspectAudioSample(data) };
}

describe('clone voice profiles', () => {
  it('gives a high sample a female variant of its language at a matching pitch', async () => {
    const high = await stealthCloneProfile({ ...(await sample(wavSample(3, { f0: 220 }))), langCode: 'DE_DE', removeBackgroundNoise: false }).then((made) => made.profile);
    expect(high.baseVoice).toBe('de+f3');
    expect(high.measuredPitchHz!).toBeCloseTo(220, -1);
    const low = (await stealthCloneProfile({ ...(await sample(wavSample(3, { f0: 110 }))), langCode: 'DE_DE', removeBackgroundNoise: false })).profile;
    expect(low.baseVoice).toBe('de');
    expect(low.pitch).toBeLessThan(high.pitch + 50);
  });

  it('speaks at the pace of its sample, within 10%, on the same text', async () => {
    const text =
      'The quick brown fox jumps over the lazy dog while the farmer watches from the old wooden porch. ' +
      'She had never seen anything like it in all her years on the farm, and she laughed out loud.';
    const words = text.split(/\s+/).length;
    const pace = (audio: { samples: Int16Array; sampleRate: number }) => (words * 60) / speechSpanSeconds(audio.samples, audio.sampleRate)!;
    // Samples at known paces: a slow speaker, the 189 words a minute of the report, a fast one.
    for (const setting of [120, 152, 230]) {
      const spoken = await synthesize(text, { voice: 'en-us', rate: setting });
      const samplePace = pace(spoken);
      const { profile } = await stealthCloneProfile({
        ...(await sample(encodeWav(spoken.samples, spoken.sampleRate))),
        langCode: 'EN_US',
        transcription: text,
        removeBackgroundNoise: false,
      });
      const clone = await synthesize(text, { voice: profile.baseVoice, rate: profile.rate, pitch: profile.pitch });
      expect(Math.abs(pace(clone) / samplePace - 1), `sample ${Math.round(samplePace)} wpm, clone ${Math.round(pace(clone))} wpm`).toBeLessThan(0.1);
    }
  });

  it('speaks alt clones with their language\'s voice, Tagalog through Indonesian', async () => {
    const female = await sample(wavSample(3, { f0: 220 }));
    expect((await altCloneProfile({ ...female, language: 'Spanish', needNoiseReduction: true })).profile.baseVoice).toBe('es+f3');
    expect((await altCloneProfile({ ...female, language: 'Tagalog', needNoiseReduction: true })).profile.baseVoice).toBe('id+f3');
    const male = await sample(wavSample(3, { f0: 110 }));
    expect((await altCloneProfile({ ...male, language: 'Ukrainian', needNoiseReduction: true })).profile.baseVoice).toBe('uk');
  });

  it('takes the pace from the speech itself when background noise is removed', async () => {
    const noisy = await sample(noisySpeech());
    const transcription = 'one two three four five six seven eight nine ten';
    const cleaned = (await stealthCloneProfile({ ...noisy, langCode: 'EN_US', transcription, removeBackgroundNoise: true })).profile;
    const raw = (await stealthCloneProfile({ ...noisy, langCode: 'EN_US', transcription, removeBackgroundNoise: false })).profile;
    const took = async (rate: number) => {
      const spoken = await synthesize(transcription, { voice: 'en-us', rate });
      return speechSpanSeconds(spoken.samples, spoken.sampleRate)!;
    };
    expect(await took(cleaned.rate)).toBeCloseTo(3, 0); // said in the 3 s of speech
    expect(await took(raw.rate)).toBeGreaterThan(5.5); // the noise made it look like 7 s of speech
  });
});

describe('what a clone could not learn', () => {
  it('says nothing when the sample taught it pitch and pace', async () => {
    expect((await stealthCloneProfile({ ...(await sample(wavSample(5))), langCode: 'EN_US', transcription: 'a b c', removeBackgroundNoise: false })).warnings).toEqual([]);
  });

  it('says a very short sample gives only a rough pitch and pace', async () => {
    const { warnings } = await stealthCloneProfile({ ...(await sample(wavSample(0.5))), langCode: 'EN_US', transcription: 'hi', removeBackgroundNoise: false });
    expect(warnings).toEqual([expect.stringMatching(/only 0\.5 s long, too short to measure a steady pitch and pace/)]);
  });

  it('says a silent sample has no pitch to learn', async () => {
    const { warnings } = await stealthCloneProfile({ ...(await sample(wavSample(4, { f0: 0 }))), langCode: 'EN_US', removeBackgroundNoise: false });
    expect(warnings).toEqual([expect.stringMatching(/No voiced speech/)]);
  });
});

describe('reduceNoise', () => {
  it('leaves a clean recording alone', () => {
    const clean = new Float32Array(RATE);
    clean.set(Array.from({ length: RATE / 2 }, (_, i) => Math.sin(i / 5) * 0.5), RATE / 4);
    expect(reduceNoise(clean, RATE)).toEqual(clean);
  });
});
