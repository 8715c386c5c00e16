/**
 * What a clone speaks with: a voice profile derived from its sample. eSpeak NG cannot copy a
 * timbre, so a local clone approximates the sample (gender, average pitch, pace) on the
 * closest built-in voice of its language; the hosted service clones the voice itself.
 */
import { badRequest } from '../../../core/errors.js';
import type { AltLanguage, StealthLangCode } from '../../../core/schemas/voices.js';
import { AudioDecodeError, decodeToPcm, deriveVoiceProfile, type AudioSampleInfo, type VoiceProfile } from '../../speech/index.js';
import { ALT_LANGUAGE_VOICES } from './alt-languages.js';
import { reduceNoise } from './noise-gate.js';

/** Enough speech for a stable pitch median; longer samples only cost decoding time. */
const ANALYSED_SECONDS = 60;
/** Below this a sample's pitch and pace are rough guesses (the spec accepts shorter ones). */
export const STEADY_SAMPLE_SECONDS = 3;

/** A profile, and what the sample could not teach it (said to the caller as `warnings`). */
export interface ClonedProfile {
  profile: VoiceProfile;
  warnings: string[];
}

/** What the clone could not learn from the sample, and why, in sentences for the caller. */
function profileWarnings(decoded: DecodedSample, info: AudioSampleInfo, profile: VoiceProfile, transcription: string | undefined): string[] {
  if (decoded.pcm === null) {
    return [
      `The pitch of the sample was not measured: decoding ${info.format.toUpperCase()} needs ffmpeg, which the engine could not find. ` +
        'The clone speaks at the default pitch of its language\'s voice; install ffmpeg (or upload a WAV) and clone again for a closer match.',
    ];
  }
  if (profile.measuredPitchHz === null) {
    return ['No voiced speech was found in the sample, so its pitch is unknown; the clone speaks at the default pitch of its language\'s voice.'];
  }
  if (info.durationSeconds < STEADY_SAMPLE_SECONDS) {
    const what = transcription ? 'pitch and pace' : 'pitch';
    return [
      `The sample is only ${info.durationSeconds.toFixed(1)} s long, too short to measure a steady ${what}; ` +
        `the clone's ${what} ${transcription ? 'are' : 'is'} a rough guess (${STEADY_SAMPLE_SECONDS} s or more of speech works better).`,
    ];
  }
  return [];
}

interface DecodedSample {
  pcm: Float32Array | null;
  sampleRate: number;
}

/** Decodes the sample for analysis; null PCM when its format needs ffmpeg and there is none. */
async function decodeSample(data: Buffer, info: AudioSampleInfo, field: string, denoise: boolean): Promise<DecodedSample> {
  try {
    const decoded = await decodeToPcm(data, info.format, { maxSeconds: ANALYSED_SECONDS });
    if (!decoded) return { pcm: null, sampleRate: 0 };
    const pcm = denoise ? reduceNoise(decoded.samples, decoded.sampleRate) : decoded.samples;
    return { pcm, sampleRate: decoded.sampleRate };
  } catch (error) {
    if (error instanceof AudioDecodeError) {
      throw badRequest(`Invalid request: ${field}: the audio could not be decoded (${error.message}).`, 'Re-export the sample and try again.');
    }
    throw error;
  }
}

export interface StealthProfileInput {
  data: Buffer;
  info: AudioSampleInfo;
  langCode: StealthLangCode;
  transcription?: string;
  removeBackgroundNoise: boolean;
}

export async function stealthCloneProfile(input: StealthProfileInput): Promise<ClonedProfile> {
  const decoded = await decodeSample(input.data, input.info, 'audioFile', input.removeBackgroundNoise);
  const profile = await deriveVoiceProfile({
    pcm: decoded.pcm,
    sampleRate: decoded.sampleRate,
    durationSeconds: input.info.durationSeconds,
    transcription: input.transcription,
    langCode: input.langCode,
  });
  return { profile, warnings: profileWarnings(decoded, input.info, profile, input.transcription) };
}

export interface AltProfileInput {
  data: Buffer;
  info: AudioSampleInfo;
  language: AltLanguage;
  needNoiseReduction: boolean;
}

/**
 * Alt clones have no langCode, so the pitch and gender are measured as for an English clone and
 * the chosen variant (e.g. "+f3") is then put on the alt language's own voice.
 */
export async function altCloneProfile(input: AltProfileInput): Promise<ClonedProfile> {
  const decoded = await decodeSample(input.data, input.info, 'audio_file', input.needNoiseReduction);
  const measured = await deriveVoiceProfile({ pcm: decoded.pcm, sampleRate: decoded.sampleRate, durationSeconds: input.info.durationSeconds, langCode: 'EN_US' });
  const variant = measured.baseVoice.includes('+') ? measured.baseVoice.slice(measured.baseVoice.indexOf('+')) : '';
  return {
    profile: { ...measured, baseVoice: ALT_LANGUAGE_VOICES[input.language] + variant },
    warnings: profileWarnings(decoded, input.info, measured, undefined),
  };
}
