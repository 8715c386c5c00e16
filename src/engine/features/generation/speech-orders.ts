/**
 * From a generation request to what its provider is asked for, one builder per provider: the
 * voice it may use, and the request's own fields in the provider's terms. A field of another
 * provider is refused by name, so a setting is never silently ignored.
 */
import { badRequest } from '../../../core/errors.js';
import type { ParsedInput } from '../../../core/routes.js';
import {
  ELEVENLABS_DEFAULT_MODEL,
  ELEVENLABS_MIN_SCRIPT_CHARACTERS,
  ELEVENLABS_SPEED,
  PROVIDER_FIELDS,
  PROVIDERS,
  type Provider,
} from '../../../core/schemas/voices.js';
import type { RequestContext } from '../../context.js';
import { findPiperVoice } from '../../speech/piper/piper-voices.js';
import { sherpaRuntime } from '../../speech/piper/runtime.js';
import { callerCatalog } from '../voices/elevenlabs.js';
import type { GenerationInput } from './generation-job.js';
import { resolveVoice, synthesisSettings } from './voice-settings.js';

type Input = ParsedInput<'generate'>;
export type OrderParts = Pick<GenerationInput, 'speech' | 'upstream' | 'piper' | 'transcript'>;

const given = (input: Input, fields: readonly (keyof Input)[]) =>
  Object.fromEntries(fields.filter((field) => input[field] !== undefined).map((field) => [field, input[field] as number]));

const builders: Record<Provider, (request: RequestContext, input: Input) => Promise<OrderParts>> = {
  async stealth(request, input) {
    const piper = findPiperVoice(request.engine.filesDir, input.voice_id);
    if (piper) {
      sherpaRuntime(); // 503 now, naming the cause, when the native runtime cannot load here
      return { piper: { voiceId: piper.voiceId, speed: input.speaking_rate ?? 1 } };
    }
    return { speech: synthesisSettings(await resolveVoice(request, 'stealth', input.voice_id), input) };
  },
  // eSpeak's settings for the stand-in, the upstream voice for MiniMax: whichever speaks when the job runs.
  async alt(request, input) {
    const basis = await resolveVoice(request, 'alt', input.voice_id);
    return {
      speech: synthesisSettings(basis, input),
      ...(basis.upstreamId ? { upstream: { voiceId: basis.upstreamId, settings: given(input, ['speed', 'pitch', 'volume']) } } : {}),
    };
  },
  async elevenlabs(request, input) {
    if (input.speed !== undefined && (input.speed < ELEVENLABS_SPEED.min || input.speed > ELEVENLABS_SPEED.max)) {
      throw badRequest(`Invalid request: speed: must be a number from ${ELEVENLABS_SPEED.min} to ${ELEVENLABS_SPEED.max} for provider elevenlabs.`);
    }
    const length = [...input.script].length;
    if (length < ELEVENLABS_MIN_SCRIPT_CHARACTERS) {
      throw badRequest(
        `Invalid request: script: Text must be at least ${ELEVENLABS_MIN_SCRIPT_CHARACTERS} characters for provider elevenlabs (it is ${length}).`,
        'Write a longer script, or use provider stealth for short texts.',
      );
    }
    // The catalog is read (briefly cached) so an unknown voice is a 400 now, not a failed job later.
    const voices = await callerCatalog(request);
    if (!voices.some((voice) => voice.voice_id === input.voice_id)) {
      throw badRequest(
        `Invalid request: voice_id: "${input.voice_id}" is not a voice of the ElevenLabs catalog you can use.`,
        'List them with `tubekit voices list --provider elevenlabs`.',
      );
    }
    return {
      upstream: {
        voiceId: input.voice_id,
        modelId: input.model_id ?? ELEVENLABS_DEFAULT_MODEL,
        settings: given(input, ['stability', 'similarity_boost', 'style', 'speed']),
      },
      transcript: input.generate_srt === true,
    };
  },
};

export async function speechOrderFor(request: RequestContext, input: Input): Promise<OrderParts> {
  refuseForeignFields(input);
  return builders[input.provider](request, input);
}

function refuseForeignFields(input: Input): void {
  const own = new Set<string>(PROVIDER_FIELDS[input.provider]);
  for (const other of PROVIDERS) {
    for (const field of PROVIDER_FIELDS[other]) {
      if (!own.has(field) && input[field] !== undefined) {
        throw badRequest(
          `Invalid request: ${field}: belongs to provider ${other}, not ${input.provider}.`,
          `Provider ${input.provider} takes: ${PROVIDER_FIELDS[input.provider].join(', ')}.`,
        );
      }
    }
  }
}
