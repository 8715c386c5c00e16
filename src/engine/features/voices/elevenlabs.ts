/**
 * ElevenLabs voices: the account's catalog seen by a caller (filters, sort and pages in the
 * hosted shape; other users' clones left out, the caller's own marked), instant clones, and
 * their deletion. A clone's id is its ElevenLabs voice id, so generation uses it as it is.
 */
import { notFound } from '../../../core/errors.js';
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import type { CatalogQuery, CatalogVoice } from '../../../core/schemas/voices.js';
import type { RequestContext } from '../../context.js';
import { speechProvider } from '../../speech/providers/registry.js';
import type { UpstreamCatalogVoice } from '../../speech/providers/speech-provider.js';
import { requireVoicePlan } from '../access.js';
import { checkSample } from './sample-check.js';
import { removeSample, samplePath } from './sample-files.js';
import { enforceCloneCap, saveClone } from './save-clone.js';
import { deleteVoiceRow, findOwnVoice } from './voice-store.js';

const NEUTRAL_PROFILE = { baseVoice: 'en-us', rate: 175, pitch: 50, gender: null, measuredPitchHz: null };

/** The ElevenLabs voice ids of clones made here, with who made them. */
async function cloneOwners(request: RequestContext): Promise<Map<string, number>> {
  const rows = await request.engine.store.all<{ upstream_id: string; user_id: number }>(
    "SELECT upstream_id, user_id FROM voices WHERE provider = 'elevenlabs' AND upstream_id IS NOT NULL",
    [],
  );
  return new Map(rows.map((row) => [row.upstream_id, Number(row.user_id)]));
}

/** The catalog as this caller may see and use it. */
export async function callerCatalog(request: RequestContext): Promise<CatalogVoice[]> {
  const voices = await speechProvider(request.engine, 'elevenlabs').catalog!();
  const owners = await cloneOwners(request);
  const me = request.user.userId;
  return voices
    .filter((voice) => (owners.get(voice.voice_id) ?? me) === me)
    .map(({ createdAt: _createdAt, ...voice }) => ({ ...voice, is_cloned: owners.get(voice.voice_id) === me }));
}

export async function listCatalog(request: RequestContext, query: CatalogQuery): Promise<RouteOutput<'voices.catalog'>> {
  requireVoicePlan(request);
  const created = new Map((await speechProvider(request.engine, 'elevenlabs').catalog!()).map((voice) => [voice.voice_id, voice]));
  const matching = (await callerCatalog(request)).filter((voice) => matches(voice, query));
  sortCatalog(matching, query.sort, created);
  const start = query.page * query.page_size;
  return { success: true, voices: matching.slice(start, start + query.page_size), has_more: matching.length > start + query.page_size };
}

const same = (value: string | null, wanted: string | undefined) => wanted === undefined || (value ?? '').toLowerCase() === wanted.trim().toLowerCase();

function matches(voice: CatalogVoice, query: CatalogQuery): boolean {
  if (query.search) {
    const needle = query.search.trim().toLowerCase();
    const haystack = [voice.name, voice.description, voice.accent, voice.use_case, voice.language, voice.category].join(' ').toLowerCase();
    if (!haystack.includes(needle)) return false;
  }
  if (query.language && !languageMatches(voice.language, query.language)) return false;
  return same(voice.gender, query.gender) && same(voice.accent, query.accent) && same(voice.age, query.age);
}

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language' });

/** A language is found by its code or its English name ("es", "es-MX" and "Spanish" all find "es"). */
function languageMatches(language: string | null, wanted: string): boolean {
  if (!language) return false;
  const want = wanted.trim().toLowerCase();
  const code = language.toLowerCase();
  const primary = (tag: string) => tag.split(/[-_]/)[0]!;
  let name = code;
  try {
    name = (LANGUAGE_NAMES.of(primary(code)) ?? code).toLowerCase();
  } catch {
    // Not a language code: the label is a name already.
  }
  return code === want || primary(code) === primary(want) || name === want;
}

/** `trending`: the provider's own order (it gives an account's voices no popularity). */
function sortCatalog(voices: CatalogVoice[], sort: CatalogQuery['sort'], upstream: Map<string, UpstreamCatalogVoice>): void {
  if (sort === 'name') voices.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  if (sort === 'newest') voices.sort((a, b) => (upstream.get(b.voice_id)?.createdAt ?? 0) - (upstream.get(a.voice_id)?.createdAt ?? 0));
}

export async function cloneElevenLabsVoice(request: RequestContext, input: ParsedInput<'voices.elevenlabs.clone'>): Promise<RouteOutput<'voices.elevenlabs.clone'>> {
  requireVoicePlan(request);
  await enforceCloneCap(request, 'elevenlabs');
  const info = await checkSample(input.audio_file, { field: 'audio_file', label: 'ElevenLabs clones' });
  const provider = speechProvider(request.engine, 'elevenlabs');
  const upstreamId = (await provider.cloneVoice({
    data: input.audio_file.data,
    filename: input.audio_file.filename || `sample.${info.format}`,
    mimeType: input.audio_file.contentType ?? 'application/octet-stream',
    name: input.voice_name,
    description: input.description,
    removeNoise: input.remove_background_noise,
  }))!;
  try {
    await saveClone(
      request,
      {
        voiceId: upstreamId,
        userId: request.user.userId,
        provider: 'elevenlabs',
        name: input.voice_name,
        language: '',
        description: input.description?.trim() ?? '',
        tags: [],
        profile: NEUTRAL_PROFILE,
        samplePath: samplePath(request.engine.filesDir, 'elevenlabs', info.format),
        upstreamId,
        createdAt: request.engine.clock.now(),
      },
      input.audio_file.data,
    );
  } catch (error) {
    // Nothing is kept at the provider when the clone cannot be kept here.
    await provider.deleteVoice(upstreamId).catch(() => undefined);
    throw error;
  }
  return { success: true, voice: { voice_id: upstreamId, name: input.voice_name, is_cloned: true } };
}

export async function deleteElevenLabsVoice(request: RequestContext, voiceId: string): Promise<void> {
  requireVoicePlan(request);
  const { store, filesDir } = request.engine;
  const voice = await findOwnVoice(store, request.user.userId, 'elevenlabs', voiceId);
  if (!voice) {
    throw notFound(`ElevenLabs voice "${voiceId}" is not one of your clones (catalog voices cannot be deleted here). List voices with \`tubekit voices list --provider elevenlabs\`.`);
  }
  // The provider first: a clone it still holds keeps costing the operator a slot.
  await speechProvider(request.engine, 'elevenlabs').deleteVoice(voice.upstreamId!);
  await deleteVoiceRow(store, voice.id);
  removeSample(filesDir, voice.samplePath);
}
