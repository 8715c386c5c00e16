import { describe, expect, it } from 'vitest';
import { routes } from '../../../src/core/routes.js';
import { synthesisSettings, type VoiceBasis } from '../../../src/engine/features/generation/voice-settings.js';
import { measurePitchHz, synthesize } from '../../../src/engine/speech/index.js';

const builtin: VoiceBasis = { voice: 'en-us', rate: 175, pitch: 50, gender: 'male', pitchHz: null };
const parse = (fields: Record<string, unknown>) => routes.generate.input.parse({ script: 'Hi.', voice_id: 'v', ...fields });

describe('synthesisSettings', () => {
  it('speaks a voice as it is when no field adjusts it', () => {
    expect(synthesisSettings(builtin, parse({}))).toEqual({ voice: 'en-us', rate: 175, pitch: 50, pitchRange: 50, volume: 100 });
  });

  it('maps stealth speaking_rate to pace and temperature to intonation range', () => {
    expect(synthesisSettings(builtin, parse({ speaking_rate: 1.5 })).rate).toBe(262.5);
    expect(synthesisSettings(builtin, parse({ temperature: 0 })).pitchRange).toBe(0);
    expect(synthesisSettings(builtin, parse({ temperature: 2 })).pitchRange).toBe(99);
  });

  it('maps alt speed, volume and pitch, and ignores the other provider\'s fields', () => {
    const alt = synthesisSettings(builtin, parse({ provider: 'alt', speed: 0.5, volume: 1.5, speaking_rate: 2 }));
    expect(alt).toMatchObject({ rate: 87.5, volume: 150 });
    expect(synthesisSettings(builtin, parse({ speed: 2 })).rate).toBe(175);
    const clone: VoiceBasis = { voice: 'es+f3', rate: 160, pitch: 40, gender: 'female', pitchHz: 190 };
    expect(synthesisSettings(clone, parse({ provider: 'alt', pitch: 0 })).pitch).toBe(40);
    expect(synthesisSettings(clone, parse({ provider: 'alt', pitch: 5 })).pitch).toBeGreaterThan(60);
  });

  it('shifts the spoken pitch by the requested semitones', async () => {
    const text = 'We are measuring how high this voice speaks today.';
    const plain = await synthesize(text, synthesisSettings(builtin, parse({ provider: 'alt' })));
    const lower = await synthesize(text, synthesisSettings(builtin, parse({ provider: 'alt', pitch: -6 })));
    const ratio = measurePitchHz(lower.samples, lower.sampleRate)! / measurePitchHz(plain.samples, plain.sampleRate)!;
    expect(ratio).toBeGreaterThan(2 ** (-8 / 12));
    expect(ratio).toBeLessThan(2 ** (-4 / 12));
  });
});
