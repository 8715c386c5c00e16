/** Voices of both providers, their clone forms, and the generation request. */
import * as z from 'zod';
import { commaList, decimal, flag, integer, oneOf, success, text, uploadedFile } from './params.js';
import { nameText } from './name-text.js';

export const STEALTH_LANG_CODES = [
  'EN_US', 'ES_ES', 'FR_FR', 'DE_DE', 'PT_BR', 'IT_IT', 'JA_JP', 'KO_KR',
  'ZH_CN', 'RU_RU', 'AR_SA', 'PL_PL', 'NL_NL', 'HI_IN', 'HE_IL',
] as const;
export type StealthLangCode = (typeof STEALTH_LANG_CODES)[number];

export const ALT_LANGUAGES = [
  'English', 'Chinese', 'Spanish', 'French', 'German', 'Italian', 'Portuguese', 'Polish', 'Russian',
  'Ukrainian', 'Czech', 'Slovak', 'Croatian', 'Serbian', 'Bulgarian', 'Dutch', 'Romanian', 'Swedish',
  'Norwegian', 'Afrikaans', 'Catalan', 'Greek', 'Lithuanian', 'Latvian', 'Vietnamese', 'Indonesian',
  'Malay', 'Tagalog', 'Swahili', 'Hindi', 'Japanese', 'Korean', 'Danish', 'Finnish', 'Hungarian', 'Slovenian',
] as const;
export type AltLanguage = (typeof ALT_LANGUAGES)[number];

/**
 * `alt` is the spec's name; `minimax` is the hosted service's own name for the same provider.
 * `elevenlabs` is the hosted service's third provider (its default there; ours stays stealth).
 */
export const PROVIDERS = ['stealth', 'alt', 'elevenlabs'] as const;
export type Provider = (typeof PROVIDERS)[number];
export const providerName = z.preprocess(
  (value) => (typeof value === 'string' && value.trim().toLowerCase() === 'minimax' ? 'alt' : value),
  oneOf(PROVIDERS),
);

export const MB = 1024 * 1024;
export const STEALTH_SAMPLE_MAX_BYTES = 15 * MB;
export const STEALTH_SAMPLE_MAX_SECONDS = 30;
export const ALT_SAMPLE_MAX_BYTES = 5 * MB;
export const ALT_SAMPLE_MIN_SECONDS = 30;

/** Text limits of a stealth clone (the spec states none; ours, so a voice list stays small). */
export const STEALTH_TAGS_MAX = 20;
export const STEALTH_TAG_MAX = 50;

export const stealthVoice = z.object({
  voice_id: z.string(),
  name: z.string(),
  language: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  is_cloned: z.boolean(),
});
export type StealthVoice = z.infer<typeof stealthVoice>;

export const stealthCloneResult = stealthVoice.omit({ is_cloned: true });
export const altVoice = z.object({
  voice_id: z.string(),
  name: z.string(),
  language: z.string(),
  is_cloned: z.literal(true),
  created_at: z.string(),
});
export type AltVoice = z.infer<typeof altVoice>;
export const altCloneResult = altVoice.omit({ created_at: true });

export const stealthVoicesOutput = z.object({ success, voices: z.array(stealthVoice) });
export const altVoicesOutput = z.object({
  success,
  voices: z.array(altVoice),
  /** Ours: who holds alt voices here — MiniMax through the operator's key, or the engine's local stand-in. */
  upstream: z.enum(['minimax', 'stand-in']).optional(),
});

export const stealthCloneInput = z.object({
  displayName: nameText({ max: 100 }),
  audioFile: uploadedFile,
  langCode: oneOf(STEALTH_LANG_CODES).default('EN_US'),
  transcription: z.string().max(5000, { error: 'must be at most 5000 characters' }).optional(),
  description: z.string().max(500, { error: 'must be at most 500 characters' }).optional(),
  tags: commaList({ max: STEALTH_TAGS_MAX, itemMax: STEALTH_TAG_MAX }).optional(),
  removeBackgroundNoise: flag().default(false),
});
/**
 * Ours, beyond the spec: what a local clone could not learn from its sample (no ffmpeg to decode
 * it, no voiced speech, too short), in sentences. Absent when it learned everything.
 */
const cloneWarnings = z.array(z.string()).optional();
export const stealthCloneOutput = z.object({ success, voice: stealthCloneResult, warnings: cloneWarnings });

export const altCloneInput = z.object({
  voice_name: nameText({ max: 100 }),
  audio_file: uploadedFile,
  language: oneOf(ALT_LANGUAGES).default('English'),
  need_noise_reduction: flag().default(true),
});
export const altCloneOutput = z.object({ success, voice: altCloneResult, warnings: cloneWarnings });

export const voiceIdInput = z.object({ voice_id: text({ max: 200 }) });
export const deleteOutput = z.object({ success });

export const generateInput = z.object({
  script: text({ max: 100_000 }),
  voice_id: text({ max: 200 }),
  provider: providerName.default('stealth'),
  custom_title: text({ max: 200 }).optional(),
  voice_name: z.string().max(200).optional(),
  // stealth-specific
  speaking_rate: decimal({ min: 0.5, max: 2 }).optional(),
  temperature: decimal({ min: 0, max: 2 }).optional(),
  stealth_model: oneOf(['1.5', '2.0']).optional(),
  // alt-specific (`speed` is elevenlabs' too, where it may only be 0.7–1.2)
  speed: decimal({ min: 0.5, max: 2 }).optional(),
  pitch: integer({ min: -12, max: 12 }).optional(),
  volume: decimal({ min: 0.1, max: 10 }).optional(),
  // elevenlabs-specific
  model_id: text({ max: 100 }).optional(),
  stability: decimal({ min: 0, max: 1 }).optional(),
  similarity_boost: decimal({ min: 0, max: 1 }).optional(),
  style: decimal({ min: 0, max: 1 }).optional(),
  generate_srt: flag().optional(),
});

/** The fields each provider takes beyond the common ones; any other provider's field is a 400. */
export const PROVIDER_FIELDS: Record<Provider, readonly (keyof GenerateInput)[]> = {
  stealth: ['speaking_rate', 'temperature', 'stealth_model'],
  alt: ['speed', 'pitch', 'volume'],
  elevenlabs: ['model_id', 'stability', 'similarity_boost', 'style', 'speed', 'generate_srt'],
};
export const ELEVENLABS_DEFAULT_MODEL = 'eleven_multilingual_v2';
export const ELEVENLABS_SPEED = { min: 0.7, max: 1.2 } as const;
/** The hosted service refuses shorter ElevenLabs scripts ("Text must be at least 200 characters"). */
export const ELEVENLABS_MIN_SCRIPT_CHARACTERS = 200;
export type GenerateInput = z.infer<typeof generateInput>;
export const generateOutput = z.object({
  success,
  job_id: z.string(),
  status: z.literal('pending'),
});

/** `GET /api/voices`: the ElevenLabs catalog of the operator's account, in the hosted shape. */
export const ELEVENLABS_SORTS = ['trending', 'name', 'newest'] as const;
export const ELEVENLABS_PAGE_SIZE_MAX = 100;
export const catalogInput = z.object({
  search: text({ max: 200 }).optional(),
  gender: text({ max: 50 }).optional(),
  language: text({ max: 50 }).optional(),
  accent: text({ max: 50 }).optional(),
  age: text({ max: 50 }).optional(),
  sort: oneOf(ELEVENLABS_SORTS).default('trending'),
  page: integer({ min: 0 }).default(0),
  page_size: integer({ min: 1, max: ELEVENLABS_PAGE_SIZE_MAX }).default(30),
});
export type CatalogQuery = z.infer<typeof catalogInput>;
export const catalogVoice = z.object({
  voice_id: z.string(),
  name: z.string(),
  gender: z.string().nullable(),
  accent: z.string().nullable(),
  age: z.string().nullable(),
  language: z.string().nullable(),
  use_case: z.string().nullable(),
  description: z.string().nullable(),
  preview_url: z.string().nullable(),
  category: z.string().nullable(),
  /** Ours: true for the caller's own clones made through this service. */
  is_cloned: z.boolean(),
});
export type CatalogVoice = z.infer<typeof catalogVoice>;
export const catalogOutput = z.object({ success, voices: z.array(catalogVoice), has_more: z.boolean() });

/** `POST /api/voices/elevenlabs/clone` (ours): an instant voice clone at ElevenLabs. */
export const ELEVENLABS_SAMPLE_MAX_BYTES = 10 * MB;
export const elevenlabsCloneInput = z.object({
  voice_name: nameText({ max: 100 }),
  audio_file: uploadedFile,
  description: z.string().max(500, { error: 'must be at most 500 characters' }).optional(),
  remove_background_noise: flag().default(false),
});
export const elevenlabsCloneOutput = z.object({
  success,
  voice: z.object({ voice_id: z.string(), name: z.string(), is_cloned: z.literal(true) }),
});
