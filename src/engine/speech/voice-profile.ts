/**
 * A cloned voice's profile: the closest eSpeak voice plus pitch and rate
 * settings that imitate the uploaded sample. eSpeak cannot copy a timbre; we
 * copy what it can express, the gender, the average pitch and the pace.
 */
import { closestBuiltinVoice, type VoiceGender } from './catalog.js';
import { measurePitchHz } from './pitch.js';
import { fitSpeakingRate } from './pace.js';
import { speechSpanSeconds } from './speech-span.js';
import { DEFAULT_PITCH, DEFAULT_RATE_WPM } from './synthesizer.js';

export { measurePitchHz } from './pitch.js';
export { decodeToPcm, ffmpegAvailable } from './decode.js';
export { speechSpanSeconds } from './speech-span.js';

export interface VoiceProfileInput {
  /**
   * Decoded sample (see decodeToPcm), or null when it could not be decoded
   * (no ffmpeg): the profile then uses the language's default voice and pitch.
   */
  pcm: Float32Array | Int16Array | null | undefined;
  sampleRate: number;
  durationSeconds: number;
  /** What is said in the sample, for the speaking pace. */
  transcription?: string;
  /** Service language code, e.g. "EN_US". */
  langCode: string;
}

export interface VoiceProfile {
  /** eSpeak voice incl. variant, e.g. "en-us+f3". */
  baseVoice: string;
  /** eSpeak pitch setting 0-99. */
  pitch: number;
  /** eSpeak's rate setting (nominal words per minute) at which it keeps the sample's pace (pace.ts). */
  rate: number;
  /** Median F0 of the sample, null if unknown (undecodable or unvoiced). */
  measuredPitchHz: number | null;
  gender: VoiceGender | null;
}

/** Above this median F0 the sample is treated as a female voice (typical: male 85-155 Hz, female 165-255 Hz). */
export const FEMALE_PITCH_THRESHOLD_HZ = 160;

/**
 * Median F0 of eSpeak's output for pitch settings 0, 10, ..., 90, 99, measured
 * with measurePitchHz on English text. The same curve held within ~5% for
 * es, de, ja and cmn, so it is used for every language.
 */
const PITCH_SETTINGS = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 99];
const MALE_F0_HZ = [68, 72, 77, 83, 91, 101, 111, 123, 137, 153, 169]; // default voices
const FEMALE_F0_HZ = [143, 153, 164, 177, 190, 208, 227, 251, 275, 306, 335]; // "+f3" variant

/** eSpeak pitch setting whose output is closest to `hz` for the voice of `gender` (log-linear interpolation). */
export function espeakPitchForHz(hz: number, gender: VoiceGender): number {
  const table = gender === 'female' ? FEMALE_F0_HZ : MALE_F0_HZ;
  if (hz <= table[0]) return PITCH_SETTINGS[0];
  const last = table.length - 1;
  if (hz >= table[last]) return PITCH_SETTINGS[last];
  let i = 0;
  while (hz > table[i + 1]) i++;
  const t = Math.log(hz / table[i]) / Math.log(table[i + 1] / table[i]);
  return Math.round(PITCH_SETTINGS[i] + t * (PITCH_SETTINGS[i + 1] - PITCH_SETTINGS[i]));
}

/** The F0 (Hz) eSpeak produces at a pitch setting for the voice of `gender`: the inverse of espeakPitchForHz. */
export function hzForEspeakPitch(setting: number, gender: VoiceGender): number {
  const table = gender === 'female' ? FEMALE_F0_HZ : MALE_F0_HZ;
  const clamped = Math.min(PITCH_SETTINGS[PITCH_SETTINGS.length - 1], Math.max(PITCH_SETTINGS[0], setting));
  let i = 0;
  while (i < PITCH_SETTINGS.length - 2 && clamped > PITCH_SETTINGS[i + 1]) i++;
  const t = (clamped - PITCH_SETTINGS[i]) / (PITCH_SETTINGS[i + 1] - PITCH_SETTINGS[i]);
  return table[i] * (table[i + 1] / table[i]) ** t;
}

export async function deriveVoiceProfile(input: VoiceProfileInput): Promise<VoiceProfile> {
  const measuredPitchHz = input.pcm && input.pcm.length > 0 ? measurePitchHz(input.pcm, input.sampleRate) : null;
  const gender: VoiceGender | null =
    measuredPitchHz === null ? null : measuredPitchHz >= FEMALE_PITCH_THRESHOLD_HZ ? 'female' : 'male';
  const voice = closestBuiltinVoice(input.langCode, gender ?? undefined);
  const pitch = measuredPitchHz === null ? DEFAULT_PITCH : espeakPitchForHz(measuredPitchHz, voice.gender);

  // Pace over the speech itself: leading/trailing silence would make it look slower.
  const speechSeconds = input.pcm && input.pcm.length > 0 ? speechSpanSeconds(input.pcm, input.sampleRate) : null;
  const seconds = speechSeconds && speechSeconds > 0.5 ? speechSeconds : input.durationSeconds;
  const rate = (await fitSpeakingRate(input.transcription, seconds, voice.espeakVoice)) ?? DEFAULT_RATE_WPM;

  return { baseVoice: voice.espeakVoice, pitch, rate, measuredPitchHz, gender };
}

