/**
 * Built-in voices of the local engine: eSpeak NG language voices combined
 * with its voice variants.
 *
 * All 15 clone languages of the service exist in the wasm build (checked with
 * `list_voices()`; test/unit/speech checks every entry against the build).
 * eSpeak's language voices are male by default; the "+fN" variants are
 * female and "+mN" alternative male timbres.
 */

export const SPEECH_LANG_CODES = [
  'EN_US', 'ES_ES', 'FR_FR', 'DE_DE', 'PT_BR', 'IT_IT', 'JA_JP', 'KO_KR',
  'ZH_CN', 'RU_RU', 'AR_SA', 'PL_PL', 'NL_NL', 'HI_IN', 'HE_IL',
] as const;
export type SpeechLangCode = (typeof SPEECH_LANG_CODES)[number];

/**
 * Service language code → eSpeak language voice name (the last segment of
 * the eSpeak identifier, e.g. "roa/pt-BR"). Note the non-obvious ones:
 * French is "fr" ("fr-fr" is only a language tag and is refused by
 * set_voice) and Chinese is "cmn" (Mandarin; "zh" is refused).
 */
export const LANG_CODE_TO_ESPEAK: Readonly<Record<SpeechLangCode, string>> = {
  EN_US: 'en-us',
  ES_ES: 'es',
  FR_FR: 'fr',
  DE_DE: 'de',
  PT_BR: 'pt-br',
  IT_IT: 'it',
  JA_JP: 'ja',
  KO_KR: 'ko',
  ZH_CN: 'cmn',
  RU_RU: 'ru',
  AR_SA: 'ar',
  PL_PL: 'pl',
  NL_NL: 'nl',
  HI_IN: 'hi',
  HE_IL: 'he',
};

export type VoiceGender = 'male' | 'female';

export interface BuiltinVoice {
  voice_id: string;
  name: string;
  /** Short language code: "en", "es", "zh", ... */
  language: string;
  description: string;
  tags: string[];
  is_cloned: false;
  // Internal fields (strip with `toPublicVoice` before sending to clients).
  /** eSpeak voice name incl. variant, e.g. "en-us+f3". */
  espeakVoice: string;
  langCode: SpeechLangCode;
  gender: VoiceGender;
}

export type PublicBuiltinVoice = Pick<BuiltinVoice, 'voice_id' | 'name' | 'language' | 'description' | 'tags' | 'is_cloned'>;

interface LanguageInfo {
  short: string;
  label: string;
  accent: string;
  /** Display names: [male, female], then optional extra variants. */
  male: string;
  female: string;
  extras?: Array<{ variant: string; gender: VoiceGender; name: string; style: string }>;
}

const LANGUAGES: Record<SpeechLangCode, LanguageInfo> = {
  EN_US: {
    short: 'en', label: 'English (US)', accent: 'american', male: 'Adam', female: 'Grace',
    extras: [
      { variant: 'm3', gender: 'male', name: 'Marcus', style: 'deeper' },
      { variant: 'm7', gender: 'male', name: 'Oliver', style: 'bright' },
      { variant: 'f2', gender: 'female', name: 'Fiona', style: 'soft' },
      { variant: 'f4', gender: 'female', name: 'Hannah', style: 'warm' },
    ],
  },
  ES_ES: {
    short: 'es', label: 'Spanish (Spain)', accent: 'castilian', male: 'Mateo', female: 'Lucia',
    extras: [{ variant: 'm3', gender: 'male', name: 'Diego', style: 'deeper' }],
  },
  FR_FR: {
    short: 'fr', label: 'French (France)', accent: 'parisian', male: 'Louis', female: 'Camille',
    extras: [{ variant: 'f2', gender: 'female', name: 'Chloe', style: 'soft' }],
  },
  DE_DE: {
    short: 'de', label: 'German', accent: 'standard', male: 'Lukas', female: 'Anna',
    extras: [{ variant: 'm3', gender: 'male', name: 'Felix', style: 'deeper' }],
  },
  PT_BR: { short: 'pt', label: 'Portuguese (Brazil)', accent: 'brazilian', male: 'Rafael', female: 'Beatriz' },
  IT_IT: { short: 'it', label: 'Italian', accent: 'standard', male: 'Marco', female: 'Giulia' },
  JA_JP: { short: 'ja', label: 'Japanese', accent: 'standard', male: 'Haruto', female: 'Yui' },
  KO_KR: { short: 'ko', label: 'Korean', accent: 'seoul', male: 'Minjun', female: 'Seoyeon' },
  ZH_CN: { short: 'zh', label: 'Chinese (Mandarin)', accent: 'mandarin', male: 'Wei', female: 'Mei' },
  RU_RU: { short: 'ru', label: 'Russian', accent: 'standard', male: 'Dmitri', female: 'Olga' },
  AR_SA: { short: 'ar', label: 'Arabic', accent: 'standard', male: 'Omar', female: 'Layla' },
  PL_PL: { short: 'pl', label: 'Polish', accent: 'standard', male: 'Jakub', female: 'Zofia' },
  NL_NL: { short: 'nl', label: 'Dutch', accent: 'netherlands', male: 'Daan', female: 'Sanne' },
  HI_IN: { short: 'hi', label: 'Hindi', accent: 'standard', male: 'Arjun', female: 'Priya' },
  HE_IL: { short: 'he', label: 'Hebrew', accent: 'standard', male: 'Noam', female: 'Yael' },
};

/** The female variant used for each language's default female voice. */
const DEFAULT_FEMALE_VARIANT = 'f3';

function makeVoice(
  langCode: SpeechLangCode,
  variant: string | undefined,
  gender: VoiceGender,
  name: string,
  style?: string,
): BuiltinVoice {
  const lang = LANGUAGES[langCode];
  const base = LANG_CODE_TO_ESPEAK[langCode];
  const espeakVoice = variant ? `${base}+${variant}` : base;
  const kind = style ? `${style} ${gender}` : gender;
  return {
    voice_id: `espeak-${base}${variant ? `-${variant}` : ''}`,
    name,
    language: lang.short,
    description: `${name}: ${kind} ${lang.label} voice (offline eSpeak NG synthesis, voice "${espeakVoice}")`,
    tags: [gender, lang.accent, ...(style ? [style] : []), 'espeak', 'offline'],
    is_cloned: false,
    espeakVoice,
    langCode,
    gender,
  };
}

const CATALOG: readonly BuiltinVoice[] = Object.freeze(
  SPEECH_LANG_CODES.flatMap((code) => {
    const lang = LANGUAGES[code];
    return [
      makeVoice(code, undefined, 'male', lang.male),
      makeVoice(code, DEFAULT_FEMALE_VARIANT, 'female', lang.female),
      ...(lang.extras ?? []).map((e) => makeVoice(code, e.variant, e.gender, e.name, e.style)),
    ];
  }).map((v) => Object.freeze(v)),
);

export function builtinVoices(): readonly BuiltinVoice[] {
  return CATALOG;
}

export function findBuiltinVoice(voiceId: string): BuiltinVoice | undefined {
  return CATALOG.find((v) => v.voice_id === voiceId);
}

/** The client-facing fields only. */
export function toPublicVoice(voice: BuiltinVoice): PublicBuiltinVoice {
  const { voice_id, name, language, description, tags, is_cloned } = voice;
  return { voice_id, name, language, description, tags: [...tags], is_cloned };
}

/** Accepts "EN_US", "en-us", "en_US"; undefined for anything else. */
export function normalizeLangCode(langCode: string): SpeechLangCode | undefined {
  const upper = langCode.trim().toUpperCase().replace('-', '_');
  return (SPEECH_LANG_CODES as readonly string[]).includes(upper) ? (upper as SpeechLangCode) : undefined;
}

/** eSpeak language voice for a service language code ("EN_US" → "en-us"), or undefined. */
export function espeakVoiceForLangCode(langCode: string): string | undefined {
  const code = normalizeLangCode(langCode);
  return code ? LANG_CODE_TO_ESPEAK[code] : undefined;
}

/**
 * The built-in voice that best fits a language and gender: the language's
 * default voice of that gender. An unknown code falls back to a voice of the
 * same short language ("EN_GB" → English), then to US English.
 */
export function closestBuiltinVoice(langCode: string, gender?: VoiceGender): BuiltinVoice {
  const code = normalizeLangCode(langCode);
  const short = langCode.trim().slice(0, 2).toLowerCase();
  const byCode = code ? CATALOG.filter((v) => v.langCode === code) : [];
  const byShort = CATALOG.filter((v) => v.language === short);
  const pool = byCode.length > 0 ? byCode : byShort.length > 0 ? byShort : CATALOG.filter((v) => v.langCode === 'EN_US');
  // The language's default voices come first in the catalog, so `find` picks them over extras.
  return (gender && pool.find((v) => v.gender === gender)) || pool[0];
}
