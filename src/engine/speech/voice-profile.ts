/**
 * A cloned voice's profile: the closest eSpeak voice plus pitch and rate
 * settings that imitate the uploaded sample. eSpeak cannot copy a timbre; we
 * copy what it can express, the gender, the average pitch and the pace.
 */
import { closestBuiltinVoice, type VoiceGender } from './catalog.js';
import { measurePitchHz } from './pitch.js';
import { DEFAULT_PITCH, DEFAULT_RATE_WPM, MAX_RATE_WPM, MIN_RATE_WPM } from './synthesizer.js';

export { measurePitchHz } from './pitch.js';
export { decodeToPcm, ffmpegAvailable } from './decode.js';

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
  /** Words per minute for eSpeak. */
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

export function deriveVoiceProfile(input: VoiceProfileInput): VoiceProfile {
  const measuredPitchHz = input.pcm && input.pcm.length > 0 ? measurePitchHz(input.pcm, input.sampleRate) : null;
  const gender: VoiceGender | null =
    measuredPitchHz === null ? null : measuredPitchHz >= FEMALE_PITCH_THRESHOLD_HZ ? 'female' : 'male';
  const voice = closestBuiltinVoice(input.langCode, gender ?? undefined);
  const pitch = measuredPitchHz === null ? DEFAULT_PITCH : espeakPitchForHz(measuredPitchHz, voice.gender);

  // Pace over the speech itself: leading/trailing silence would make it look slower.
  const speechSeconds = input.pcm && input.pcm.length > 0 ? speechSpanSeconds(input.pcm, input.sampleRate) : null;
  const seconds = speechSeconds && speechSeconds > 0.5 ? speechSeconds : input.durationSeconds;
  const rate = paceWordsPerMinute(input.transcription, seconds, voice.language) ?? DEFAULT_RATE_WPM;

  return { baseVoice: voice.espeakVoice, pitch, rate, measuredPitchHz, gender };
}

/**
 * Words per minute of a transcription spoken in `seconds`, clamped to
 * eSpeak's 80-450 (its wpm setting matches real output within ~10%).
 * Words are counted with Intl.Segmenter, which also segments CJK text.
 * Undefined without a usable transcription or duration.
 */
export function paceWordsPerMinute(transcription: string | undefined, seconds: number, language = 'en'): number | undefined {
  if (!transcription || !(seconds > 0)) return undefined;
  let words = 0;
  for (const part of new Intl.Segmenter(language, { granularity: 'word' }).segment(transcription)) {
    if (part.isWordLike) words++;
  }
  if (words === 0) return undefined;
  return Math.min(MAX_RATE_WPM, Math.max(MIN_RATE_WPM, Math.round((words * 60) / seconds)));
}

/** Seconds from the first to the last 20 ms frame louder than 10% of the loud level; null if all quiet. */
export function speechSpanSeconds(pcm: Float32Array | Int16Array, sampleRate: number): number | null {
  const scale = pcm instanceof Int16Array ? 1 / 32768 : 1;
  const frame = Math.max(1, Math.round(sampleRate * 0.02));
  const levels: number[] = [];
  for (let s = 0; s + frame <= pcm.length; s += frame) {
    let sum = 0;
    for (let n = s; n < s + frame; n++) sum += (pcm[n] * scale) ** 2;
    levels.push(Math.sqrt(sum / frame));
  }
  if (levels.length === 0) return null;
  const loud = [...levels].sort((a, b) => a - b)[Math.floor(levels.length * 0.95)];
  const gate = Math.max(1e-3, 0.1 * loud);
  const first = levels.findIndex((l) => l >= gate);
  if (first < 0) return null;
  let last = levels.length - 1;
  while (levels[last] < gate) last--;
  return ((last - first + 1) * frame) / sampleRate;
}
