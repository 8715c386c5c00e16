import path from 'node:path';
import { expect, it } from 'vitest';
import { STEALTH_LANG_CODES } from '../../src/core/schemas/voices.js';
import { filesUnder, mp3Sample, pngBytes, upload, wavSample } from '../support/audio-fixtures.js';
import { describeEachEngine, failure } from '../support/engines.js';

describeEachEngine('stealth voices', (get) => {
  const samples = () => filesUnder(path.join(get().engine.dataDir, 'samples'));

  it('lists built-in voices for every clone language, with the listing fields only', async () => {
    const { voices } = await get().as('professional').call('voices.stealth.list', {});
    for (const voice of voices) {
      expect(Object.keys(voice).sort()).toEqual(['description', 'is_cloned', 'language', 'name', 'tags', 'voice_id']);
      expect(voice.is_cloned).toBe(false);
      expect(voice.language).toMatch(/^[a-z]{2}$/);
    }
    const languages = new Set(voices.map((voice) => voice.language));
    for (const code of STEALTH_LANG_CODES) expect(languages).toContain(code.slice(0, 2).toLowerCase());
  });

  it('refuses every voice endpoint without the Professional or Ultimate plan', async () => {
    for (const plan of ['starter', 'none'] as const) {
      const service = get().as(plan);
      expect((await failure(service.call('voices.stealth.list', {}))).status).toBe(403);
      const clone = await failure(service.call('voices.stealth.clone', { displayName: 'Me', audioFile: upload(wavSample(2)) }));
      expect(clone.status).toBe(403);
      expect((await failure(service.call('voices.stealth.delete', { voice_id: 'clone_x' }))).status).toBe(403);
      const invalid = await failure(service.call('voices.stealth.clone', { displayName: '', audioFile: upload(wavSample(1)), langCode: 'XX' as never }));
      expect(invalid.status).toBe(403);
    }
  });

  it('clones a voice: language in langCode form, tags split on commas, no is_cloned', async () => {
    const service = get().as('professional');
    const { voice } = await service.call('voices.stealth.clone', {
      displayName: 'Narrator',
      audioFile: upload(wavSample(4, { f0: 210 })),
      langCode: 'DE_DE',
      description: 'calm and slow',
      tags: 'calm, narration,,documentary ',
      transcription: 'Guten Tag, das ist meine Stimme.',
    });
    expect(voice).toEqual({
      voice_id: expect.stringMatching(/^clone_/),
      name: 'Narrator',
      language: 'DE_DE',
      description: 'calm and slow',
      tags: ['calm', 'narration', 'documentary'],
    });
    const { voices } = await service.call('voices.stealth.list', {});
    expect(voices.at(-1)).toEqual({ ...voice, language: 'de', is_cloned: true });
  });

  it('defaults langCode to EN_US and removeBackgroundNoise to false', async () => {
    const { voice } = await get().as('ultimate').call('voices.stealth.clone', { displayName: 'Plain', audioFile: upload(wavSample(2)) });
    expect(voice.language).toBe('EN_US');
    expect(voice.tags).toEqual([]);
    expect(voice.description).toBe('');
  });

  it('judges the format by content, not by name or declared type', async () => {
    const service = get().as('professional');
    const mp3 = await service.call('voices.stealth.clone', {
      displayName: 'From MP3',
      audioFile: upload(await mp3Sample(3), 'notes.txt', 'text/plain'),
    });
    expect(mp3.voice.voice_id).toMatch(/^clone_/);
    const before = samples().length;
    const png = await failure(
      service.call('voices.stealth.clone', { displayName: 'Fake', audioFile: upload(pngBytes, 'voice.mp3', 'audio/mpeg') }),
    );
    expect(png.status).toBe(400);
    expect(png.message).toMatch(/audioFile: .*PNG.*Accepted formats: MP3, WAV, M4A, OGG, WEBM/);
    const text = await failure(
      service.call('voices.stealth.clone', { displayName: 'Fake', audioFile: upload(Buffer.from('hello, I am not audio'), 'a.wav') }),
    );
    expect(text.message).toMatch(/audioFile: .*text file/);
    expect(samples().length).toBe(before);
  });

  it('accepts 30 seconds and refuses anything longer, saving nothing', async () => {
    const service = get().as('professional');
    const { voices: before } = await service.call('voices.stealth.list', {});
    const filesBefore = samples().length;
    const long = await failure(service.call('voices.stealth.clone', { displayName: 'Long', audioFile: upload(wavSample(30.5, { f0: 0 })) }));
    expect(long.status).toBe(400);
    expect(long.message).toMatch(/audioFile: the sample is 30\.5 seconds long; stealth clones take at most 30 seconds/);
    expect((await service.call('voices.stealth.list', {})).voices).toEqual(before);
    expect(samples().length).toBe(filesBefore);
    await service.call('voices.stealth.clone', { displayName: 'Exact', audioFile: upload(wavSample(30, { f0: 0 })) });
    expect(samples().length).toBe(filesBefore + 1);
  });

  it('refuses a sample over 15 MB with a 400 naming the field', async () => {
    const big = Buffer.concat([wavSample(1), Buffer.alloc(15 * 1024 * 1024)]);
    const error = await failure(get().as('professional').call('voices.stealth.clone', { displayName: 'Big', audioFile: upload(big) }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/audioFile: the file is larger than 15 MB/);
  });

  it('names the wrong field: langCode, displayName, removeBackgroundNoise, audioFile', async () => {
    const service = get().as('professional');
    const audioFile = upload(wavSample(1));
    const lang = await failure(service.call('voices.stealth.clone', { displayName: 'X', audioFile, langCode: 'EN_GB' as never }));
    expect(lang.status).toBe(400);
    expect(lang.message).toMatch(/langCode: must be one of: EN_US, ES_ES, .*HE_IL/);
    const name = await failure(service.call('voices.stealth.clone', { audioFile } as never));
    expect(name.message).toMatch(/displayName: is required/);
    const noise = await failure(
      service.call('voices.stealth.clone', { displayName: 'X', audioFile, removeBackgroundNoise: 'maybe' as never }),
    );
    expect(noise.message).toMatch(/removeBackgroundNoise: must be true or false/);
    const file = await failure(service.call('voices.stealth.clone', { displayName: 'X' } as never));
    expect(file.message).toMatch(/audioFile/);
  });

  it('allows 30 clones on Professional and refuses the 31st with 403', async () => {
    const service = get().as('professional');
    const audioFile = upload(wavSample(0.5, { f0: 0 }));
    for (let i = 0; i < 30; i++) await service.call('voices.stealth.clone', { displayName: `v${i}`, audioFile });
    const filesBefore = samples().length;
    const error = await failure(service.call('voices.stealth.clone', { displayName: 'one too many', audioFile }));
    expect(error.status).toBe(403);
    expect(error.code).toBe('limit_reached');
    expect(error.message).toMatch(/stealth voice clone limit \(30 on your plan\)/);
    expect(samples().length).toBe(filesBefore);
  });

  it('has no stealth clone limit on Ultimate', async () => {
    const service = get().as('ultimate');
    const audioFile = upload(wavSample(0.5, { f0: 0 }));
    for (let i = 0; i < 31; i++) await service.call('voices.stealth.clone', { displayName: `v${i}`, audioFile });
    const { voices } = await service.call('voices.stealth.list', {});
    expect(voices.filter((voice) => voice.is_cloned)).toHaveLength(31);
  });

  it('deletes only the caller\'s own clone, with its sample, permanently', async () => {
    const owner = get().as('professional');
    const stranger = get().as('ultimate');
    const { voice } = await owner.call('voices.stealth.clone', { displayName: 'Mine', audioFile: upload(wavSample(1)) });
    // The file is named by an id of ours, which the voice's row records.
    const row = await get().engine.store.get<{ sample_path: string }>('SELECT sample_path FROM voices WHERE public_id = ?', [voice.voice_id]);
    const ownSample = () => samples().filter((file) => file.endsWith(row!.sample_path));
    expect(ownSample()).toHaveLength(1);

    const notMine = await failure(stranger.call('voices.stealth.delete', { voice_id: voice.voice_id }));
    expect(notMine.status).toBe(404);
    const builtIn = await failure(owner.call('voices.stealth.delete', { voice_id: 'espeak-en-us' }));
    expect(builtIn.status).toBe(404);

    expect(await owner.call('voices.stealth.delete', { voice_id: voice.voice_id })).toEqual({ success: true });
    expect((await owner.call('voices.stealth.list', {})).voices.some((v) => v.voice_id === voice.voice_id)).toBe(false);
    expect(ownSample()).toHaveLength(0);
    expect((await failure(owner.call('voices.stealth.delete', { voice_id: voice.voice_id }))).status).toBe(404);
  });

  it('shows each user only their own clones', async () => {
    const owner = get().as('professional');
    await owner.call('voices.stealth.clone', { displayName: 'Private', audioFile: upload(wavSample(1)) });
    const { voices } = await get().as('professional').call('voices.stealth.list', {});
    expect(voices.some((voice) => voice.is_cloned)).toBe(false);
  });
}, { postgres: true });
