/** Alt voices: clones only (no built-in catalog), each also held by the upstream provider (MiniMax, or the local stand-in). */
import { notFound } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import { ALT_SAMPLE_MIN_SECONDS, type AltVoice } from '../../../core/schemas/voices.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';
import { requireVoicePlan } from '../access.js';
import { speechProvider } from '../../speech/providers/registry.js';
import { altCloneProfile } from './clone-profile.js';
import { checkSample } from './sample-check.js';
import { removeSample, samplePath } from './sample-files.js';
import { enforceCloneCap, saveClone } from './save-clone.js';
import { deleteVoiceRow, findOwnVoice, listVoices, newVoiceId } from './voice-store.js';

const providerFor = (request: RequestContext) => speechProvider(request.engine, 'alt');

/** Whether alt voices are MiniMax's here, or the local stand-in's (no MiniMax key). */
export const altUpstream = (request: RequestContext): 'minimax' | 'stand-in' => (providerFor(request).standIn ? 'stand-in' : 'minimax');

export async function listAltVoices(request: RequestContext): Promise<AltVoice[]> {
  requireVoicePlan(request);
  return (await listVoices(request.engine.store, request.user.userId, 'alt')).map((voice) => ({
    voice_id: voice.voiceId,
    name: voice.name,
    language: voice.language,
    is_cloned: true,
    created_at: isoTime(voice.createdAt),
  }));
}

export async function cloneAltVoice(
  request: RequestContext,
  input: ParsedInput<'voices.alt.clone'>,
): Promise<Omit<RouteOutput<'voices.alt.clone'>, 'success'>> {
  requireVoicePlan(request);
  await enforceCloneCap(request, 'alt');
  const sample = input.audio_file.data;
  const info = await checkSample(input.audio_file, {
    field: 'audio_file',
    label: 'alt clones',
    minSeconds: ALT_SAMPLE_MIN_SECONDS,
  });
  const { profile, warnings } = await altCloneProfile({
    data: sample,
    info,
    language: input.language,
    needNoiseReduction: input.need_noise_reduction,
  });
  const provider = providerFor(request);
  const upstreamId = await provider.cloneVoice({
    data: sample,
    filename: input.audio_file.filename ?? `sample.${info.format}`,
    mimeType: input.audio_file.contentType ?? 'application/octet-stream',
    name: input.voice_name,
    language: input.language,
    removeNoise: input.need_noise_reduction,
  }); // 502 when the provider fails
  const voiceId = newVoiceId('alt');
  try {
    await saveClone(
      request,
      {
        voiceId,
        userId: request.user.userId,
        provider: 'alt',
        name: input.voice_name,
        language: input.language,
        description: '',
        tags: [],
        profile,
        samplePath: samplePath(request.engine.filesDir, 'alt', info.format),
        upstreamId,
        createdAt: request.engine.clock.now(),
      },
      sample,
    );
  } catch (error) {
    // A clone that raced past the cap must not stay at the provider either.
    if (upstreamId) await provider.deleteVoice(upstreamId).catch(() => undefined);
    throw error;
  }
  return {
    voice: { voice_id: voiceId, name: input.voice_name, language: input.language, is_cloned: true },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/**
 * Removes the caller's clone, and asks the provider to delete it too — without guarantee:
 * a provider failure does not keep the voice in the caller's library.
 */
export async function deleteAltVoice(request: RequestContext, voiceId: string): Promise<void> {
  requireVoicePlan(request);
  const { store, filesDir } = request.engine;
  const voice = await findOwnVoice(store, request.user.userId, 'alt', voiceId);
  if (!voice) {
    throw notFound(`Alt voice "${voiceId}" is not one of your clones. List yours with \`tubekit voices list --provider alt\`.`);
  }
  await deleteVoiceRow(store, voice.id);
  removeSample(filesDir, voice.samplePath);
  if (voice.upstreamId) await providerFor(request).deleteVoice(voice.upstreamId).catch(() => undefined);
}
