import { describe, expect, it } from 'vitest';
import {
  builtinVoices,
  closestBuiltinVoice,
  espeakVoiceForLangCode,
  findBuiltinVoice,
  LANG_CODE_TO_ESPEAK,
  SPEECH_LANG_CODES,
  toPublicVoice,
} from '../../../src/engine/speech/index.js';

describe('built-in voice catalog', () => {
  it('has a male and a female voice for every clone language', () => {
    for (const code of SPEECH_LANG_CODES) {
      const voices = builtinVoices().filter((v) => v.langCode === code);
      expect(voices.some((v) => v.gender === 'male'), code).toBe(true);
      expect(voices.some((v) => v.gender === 'female'), code).toBe(true);
    }
    expect(Object.keys(LANG_CODE_TO_ESPEAK).sort()).toEqual([...SPEECH_LANG_CODES].sort());
  });

  it('has extra variants for English and some other languages', () => {
    const en = builtinVoices().filter((v) => v.langCode === 'EN_US');
    expect(en.length).toBeGreaterThanOrEqual(4);
    expect(new Set(en.map((v) => v.espeakVoice)).size).toBe(en.length);
    const withExtras = new Set(
      SPEECH_LANG_CODES.filter((c) => builtinVoices().filter((v) => v.langCode === c).length > 2),
    );
    expect(withExtras.size).toBeGreaterThanOrEqual(3);
  });

  it('entries have the public shape, stable unique ids and short language codes', () => {
    const ids = new Set<string>();
    for (const v of builtinVoices()) {
      expect(v.voice_id).toMatch(/^espeak-[a-z-]+(-[a-z]+\d)?$/);
      expect(ids.has(v.voice_id)).toBe(false);
      ids.add(v.voice_id);
      expect(v.language).toMatch(/^[a-z]{2}$/);
      expect(v.name.length).toBeGreaterThan(0);
      expect(v.description.length).toBeGreaterThan(10);
      expect(v.tags).toContain(v.gender);
      expect(v.is_cloned).toBe(false);
    }
    expect(findBuiltinVoice('espeak-en-us-f3')?.espeakVoice).toBe('en-us+f3');
    expect(findBuiltinVoice('espeak-en-us')?.gender).toBe('male');
    expect(findBuiltinVoice('nope')).toBeUndefined();
    expect(Object.keys(toPublicVoice(builtinVoices()[0])).sort()).toEqual(
      ['description', 'is_cloned', 'language', 'name', 'tags', 'voice_id'],
    );
  });

  it('maps service language codes to eSpeak voices', () => {
    expect(espeakVoiceForLangCode('EN_US')).toBe('en-us');
    expect(espeakVoiceForLangCode('fr-fr')).toBe('fr');
    expect(espeakVoiceForLangCode('ZH_CN')).toBe('cmn');
    expect(espeakVoiceForLangCode('XX_YY')).toBeUndefined();
  });

  it('finds the closest voice by language and gender', () => {
    expect(closestBuiltinVoice('DE_DE', 'female').espeakVoice).toBe('de+f3');
    expect(closestBuiltinVoice('DE_DE', 'male').espeakVoice).toBe('de');
    expect(closestBuiltinVoice('JA_JP').espeakVoice).toBe('ja');
    expect(closestBuiltinVoice('HE_IL', 'female').language).toBe('he');
    expect(closestBuiltinVoice('EN_GB', 'female').espeakVoice).toBe('en-us+f3'); // same language
    expect(closestBuiltinVoice('SV_SE').espeakVoice).toBe('en-us'); // unknown: US English
  });
});
