/**
 * From a generation request to synthesizer settings: which voice may be used (a built-in, or
 * one of the caller's clones of the requested provider) and how the providers' own fields map
 * onto eSpeak's rate, pitch, intonation range and amplitude.
 */
import { badRequest } from '../../../core/errors.js';
import type { ParsedInput } from '../../../core/routes.js';
import type { Provider } from '../../../core/schemas/voices.js';
import type { RequestContext } from '../../context.js';
import {
  DEFAULT_PITCH,
  DEFAULT_PITCH_RANGE,
  DEFAULT_RATE_WPM,
  DEFAULT_VOLUME,
  espeakPitchForHz,
  findBuiltinVoice,
  hzForEspeakPitch,
  type SynthesisOptions,
  type VoiceGender,
} from '../../speech/index.js';
import { findOwnVoice } from '../voices/voice-store.js';

/** How a voice speaks before the request's own adjustments. */
export interface VoiceBasis {
  voice: string;
  rate: number;
  pitch: number;
  gender: VoiceGender;
  /** The sample's measured F0, when the voice is a clone whose sample could be analysed. */
  pitchHz: number | null;
  /** The clone's id at its upstream provider (alt clones). */
  upstreamId: string | null;
}

const genderOf = (espeakVoice: string): VoiceGender => (/\+f\d/.test(espeakVoice) ? 'female' : 'male');

/** The voice a request names, or a 400 saying what can be used instead. */
export async function resolveVoice(request: RequestContext, provider: Provider, voiceId: string): Promise<VoiceBasis> {
  if (provider === 'stealth') {
    const builtin = findBuiltinVoice(voiceId);
    if (builtin) {
      return { voice: builtin.espeakVoice, rate: DEFAULT_RATE_WPM, pitch: DEFAULT_PITCH, gender: builtin.gender, pitchHz: null, upstreamId: null };
    }
  }
  const clone = await findOwnVoice(request.engine.store, request.user.userId, provider, voiceId);
  if (!clone) {
    const what = provider === 'stealth' ? 'a built-in stealth voice or one of your stealth clones' : 'one of your alt clones';
    throw badRequest(
      `Invalid request: voice_id: "${voiceId}" is not ${what}.`,
      `List the voices you can use with \`tubekit voices list --provider ${provider}\`.`,
    );
  }
  const { profile } = clone;
  return {
    voice: profile.baseVoice,
    rate: profile.rate,
    pitch: profile.pitch,
    gender: profile.gender ?? genderOf(profile.baseVoice),
    pitchHz: profile.measuredPitchHz,
    upstreamId: clone.upstreamId,
  };
}

/**
 * Stealth: `speaking_rate` scales the pace; `temperature` (the hosted model's expressiveness)
 * becomes eSpeak's intonation range, 0 flat to 2 lively; `stealth_model` has no local
 * counterpart. Alt: `speed` scales the pace, `pitch` shifts by semitones, `volume` scales the
 * amplitude (eSpeak tops out at twice the normal level).
 */
export function synthesisSettings(basis: VoiceBasis, input: ParsedInput<'generate'>): SynthesisOptions {
  const settings: SynthesisOptions = {
    voice: basis.voice,
    rate: basis.rate,
    pitch: basis.pitch,
    pitchRange: DEFAULT_PITCH_RANGE,
    volume: DEFAULT_VOLUME,
  };
  if (input.provider === 'stealth') {
    if (input.speaking_rate !== undefined) settings.rate = basis.rate * input.speaking_rate;
    if (input.temperature !== undefined) settings.pitchRange = Math.min(99, DEFAULT_PITCH_RANGE * input.temperature);
    return settings;
  }
  if (input.speed !== undefined) settings.rate = basis.rate * input.speed;
  if (input.pitch !== undefined && input.pitch !== 0) {
    const fromHz = basis.pitchHz ?? hzForEspeakPitch(basis.pitch, basis.gender);
    settings.pitch = espeakPitchForHz(fromHz * 2 ** (input.pitch / 12), basis.gender);
  }
  if (input.volume !== undefined) settings.volume = DEFAULT_VOLUME * input.volume;
  return settings;
}
