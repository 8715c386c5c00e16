/** Stealth voices: the built-in catalog plus the caller's clones. */
import { notFound } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import {
  STEALTH_SAMPLE_MAX_SECONDS,
  type StealthLangCode,
  type StealthVoice,
} from '../../../core/schemas/voices.js';
import type { RequestContext } from '../../context.js';
import { listPiperVoices, type PiperVoice } from '../../speech/piper/piper-voices.js';
import { builtinVoices, closestBuiltinVoice, toPublicVoice } from '../../speech/index.js';
import { requireVoicePlan } from '../access.js';
import { stealthCloneProfile } from './clone-profile.js';
import { checkSample } from './sample-check.js';
import { removeSample, samplePath } from './sample-files.js';
import { enforceCloneCap, saveClone } from './save-clone.js';
import { deleteVoiceRow, findOwnVoice, listVoices, newVoiceId, type StoredVoice } from './voice-store.js';

/** Listings carry the short language code ("en"), as built-in entries do; the clone result keeps `EN_US`. */
const shortLanguage = (langCode: string): string => closestBuiltinVoice(langCode).language;

const toListing = (voice: StoredVoice): StealthVoice => ({
  voice_id: voice.voiceId,
  name: voice.name,
  language: shortLanguage(voice.language),
  description: voice.description,
  tags: voice.tags,
  is_cloned: true,
});

/** An installed Piper voice beside the built-ins: its size and licence in the description. */
const piperListing = (voice: PiperVoice): StealthVoice => ({
  voice_id: voice.voiceId,
  name: voice.name,
  language: voice.languageCode.split(/[-_]/)[0]!.toLowerCase(),
  description: `Piper voice (${voice.languageName}), ${(voice.sizeBytes / 1e6).toFixed(1)} MB, licence: ${voice.license ?? 'not stated in its config'}`,
  tags: ['piper'],
  is_cloned: false,
});

export async function listStealthVoices(request: RequestContext): Promise<StealthVoice[]> {
  requireVoicePlan(request);
  const clones = (await listVoices(request.engine.store, request.user.userId, 'stealth')).map(toListing);
  return [...builtinVoices().map(toPublicVoice), ...listPiperVoices(request.engine.filesDir).map(piperListing), ...clones];
}

export async function cloneStealthVoice(
  request: RequestContext,
  input: ParsedInput<'voices.stealth.clone'>,
): Promise<Omit<RouteOutput<'voices.stealth.clone'>, 'success'>> {
  requireVoicePlan(request);
  // Checked before the sample is analysed so a full library is refused cheaply; saveClone checks again.
  await enforceCloneCap(request, 'stealth');
  const sample = input.audioFile.data;
  const info = await checkSample(input.audioFile, {
    field: 'audioFile',
    label: 'stealth clones',
    maxSeconds: STEALTH_SAMPLE_MAX_SECONDS,
  });
  const langCode: StealthLangCode = input.langCode;
  const { profile, warnings } = await stealthCloneProfile({
    data: sample,
    info,
    langCode,
    transcription: input.transcription,
    removeBackgroundNoise: input.removeBackgroundNoise,
  });
  const voiceId = newVoiceId('stealth');
  const voice = {
    voiceId,
    userId: request.user.userId,
    provider: 'stealth' as const,
    name: input.displayName,
    language: langCode,
    description: input.description?.trim() ?? '',
    tags: input.tags ?? [],
    profile,
    samplePath: samplePath(request.engine.filesDir, 'stealth', info.format),
    upstreamId: null,
    createdAt: request.engine.clock.now(),
  };
  await saveClone(request, voice, sample);
  return {
    voice: { voice_id: voiceId, name: voice.name, language: langCode, description: voice.description, tags: voice.tags },
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** Only the caller's own clone can go; deletion is permanent (row and sample). */
export async function deleteStealthVoice(request: RequestContext, voiceId: string): Promise<void> {
  requireVoicePlan(request);
  const { store, filesDir } = request.engine;
  const voice = await findOwnVoice(store, request.user.userId, 'stealth', voiceId);
  if (!voice) {
    throw notFound(
      `Stealth voice "${voiceId}" is not one of your clones (built-in voices cannot be deleted). List yours with \`tubekit voices list --provider stealth\`.`,
    );
  }
  await deleteVoiceRow(store, voice.id);
  removeSample(filesDir, voice.samplePath);
}
