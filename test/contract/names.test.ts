/**
 * The text rules of user-given names (folders, voices, alerts): NFC, full Unicode case folding for
 * folder uniqueness, and 400s that say why for control characters, invisible-only names,
 * bidirectional controls and unpaired surrogates — with nothing saved.
 */
import { expect, it } from 'vitest';
import { describeEachEngine, failure } from '../support/engines.js';
import { upload, wavSample } from '../support/audio-fixtures.js';

const REFUSED: Array<[string, RegExp]> = [
  // NUL is refused at the edge of every call, before the name rules see it.
  ['\u0000', /NUL character \(U\+0000\)/],
  ['Tab\there', /control character \(U\+0009\)/],
  ['\u200b', /no visible character/],
  ['\u200b\u200d\ufe0f \u3164', /no visible character/],
  ['Invoice \u202egpj.exe', /bidirectional control \(U\+202E\)/],
  ['\ud800', /unpaired surrogate \(U\+D800\)/],
  ['Half \udfff pair', /unpaired surrogate \(U\+DFFF\)/],
];

describeEachEngine('names: text rules', (get) => {
  it('treats folder names alike under full Unicode case folding and normalisation', async () => {
    const user = get().as('starter');
    await user.call('folders.create', { name: 'Café' });
    for (const name of ['CAFÉ', 'cafe\u0301', 'CAFE\u0301']) {
      const error = await failure(user.call('folders.create', { name }));
      expect(error.status).toBe(409);
      expect(error.message).toMatch(/A folder named "Café" already exists/);
    }
    await user.call('folders.create', { name: 'Straße' });
    expect((await failure(user.call('folders.create', { name: 'STRASSE' }))).status).toBe(409);
    await user.call('folders.create', { name: 'ΟΔΥΣΣΕΥΣ' });
    expect((await failure(user.call('folders.create', { name: 'οδυσσευς' }))).status).toBe(409);
    expect((await user.call('folders.list', {})).count).toBe(3);
  });

  it('stores names in NFC, so the decomposed and composed spellings are one name', async () => {
    const user = get().as('starter');
    const { folder } = await user.call('folders.create', { name: 'Re\u0301sume\u0301' });
    expect(folder.name).toBe('Résumé');
    expect(folder.name).toHaveLength(6);
    const renamed = await user.call('folders.rename', { id: folder.id, name: 'RÉSUMÉ' });
    expect(renamed.folder.name).toBe('RÉSUMÉ');
  });

  it('refuses control, invisible-only, bidi-control and unpaired-surrogate folder names, saving nothing', async () => {
    const user = get().as('starter');
    const { folder } = await user.call('folders.create', { name: 'Keep me' });
    for (const [name, why] of REFUSED) {
      const created = await failure(user.call('folders.create', { name }));
      expect([name, created.status]).toEqual([name, 400]);
      expect(created.message).toMatch(/name/);
      expect(created.message).toMatch(why);
      expect((await failure(user.call('folders.rename', { id: folder.id, name }))).message).toMatch(why);
    }
    expect((await user.call('folders.list', {})).folders.map((row) => row.name)).toEqual(['Keep me']);
  });

  it('accepts names that are visible, emoji joined with zero-width joiners included', async () => {
    const user = get().as('starter');
    for (const name of ['👨‍👩‍👧 Family vlogs', 'עברית', '日本語のチャンネル', '🎹']) {
      expect((await user.call('folders.create', { name })).folder.name).toBe(name);
    }
  });

  it('applies the same rules to voice and alert names', async () => {
    const pro = get().as('professional');
    for (const [name, why] of REFUSED.slice(0, 3)) {
      const voice = await failure(pro.call('voices.alt.clone', { voice_name: name, audio_file: upload(wavSample(30)) }));
      expect(voice.status).toBe(400);
      expect(voice.message).toMatch(/voice_name/);
      expect(voice.message).toMatch(why);
      const alert = await failure(pro.call('alerts.create', { name }));
      expect(alert.status).toBe(400);
      expect(alert.message).toMatch(why);
    }
    expect((await pro.call('voices.alt.list', {})).voices).toHaveLength(0);
    expect((await pro.call('alerts.list', {})).alerts).toHaveLength(0);
  });
}, { postgres: true });
