import { describe, expect, it } from 'vitest';
import { checkSample } from '../../../src/engine/features/voices/sample-check.js';
import { upload, wavSample } from '../../support/audio-fixtures.js';

const stealth = { field: 'audioFile', label: 'stealth clones', maxSeconds: 30 };
const alt = { field: 'audio_file', label: 'alt clones', minSeconds: 30 };
const silence = (seconds: number) => upload(wavSample(seconds, { f0: 0 }));

describe('checkSample', () => {
  it('allows a quarter second of container padding at each limit, no more', async () => {
    await expect(checkSample(silence(30.2), stealth)).resolves.toMatchObject({ format: 'wav' });
    await expect(checkSample(silence(30.3), stealth)).rejects.toMatchObject({ status: 400 });
    await expect(checkSample(silence(29.8), alt)).resolves.toMatchObject({ format: 'wav' });
    await expect(checkSample(silence(29.7), alt)).rejects.toMatchObject({ status: 400 });
  });

  it('names the field in every refusal', async () => {
    await expect(checkSample(upload(Buffer.from('plain words')), alt)).rejects.toThrow(/^Invalid request: audio_file: /);
    await expect(checkSample(upload(Buffer.alloc(0)), stealth)).rejects.toThrow(/^Invalid request: audioFile: The audio sample is empty/);
  });
});
