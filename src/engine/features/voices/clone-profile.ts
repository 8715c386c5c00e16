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

export async function stealthCloneProfile(input: StealthProfileInput): Promise<VoiceProfile> {
  const { pcm, sampleRate } = await decodeSample(input.data, input.info, 'audioFile', input.removeBackgroundNoise);
  return deriveVoiceProfile({
    pcm,
    sampleRate,
    durationSeconds: input.info.durationSeconds,
    transcription: input.transcription,
    langCode: input.langCode,
  });
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
export async function altCloneProfile(input: AltProfileInput): Promise<VoiceProfile> {
  const { pcm, sampleRate } = await decodeSample(input.data, input.info, 'audio_file', input.needNoiseReduction);
  const measured = deriveVoiceProfile({ pcm, sampleRate, durationSeconds: input.info.durationSeconds, langCode: 'EN_US' });
  const variant = measured.baseVoice.includes('+') ? measured.baseVoice.slice(measured.baseVoice.indexOf('+')) : '';
  return { ...measured, baseVoice: ALT_LANGUAGE_VOICES[input.language] + variant };
}
