/**
 * ElevenLabs, with the operator's key: speech through text-to-speech with timestamps (so every
 * word of the SRT comes from the provider's own character alignment), long scripts in parts cut
 * at sentence ends and joined frame by frame, the account's voice catalog (kept briefly), and
 * instant voice cloning. This module knows ElevenLabs' wire format and nothing else.
 */
import { isCharacterAlignment, wordsFromAlignment } from '../alignment-words.js';
import { joinMp3, Mp3FormatError, readMp3Frames, type Mp3Frames } from '../mp3-frames.js';
import { chunkScript } from '../sentence-chunks.js';
import type { TimedWord } from '../srt.js';
import type { UpstreamConfig } from './speech-settings.js';
import { withSpentCharacters, type SpeechOrder, type SpeechProvider, type SpokenScript, type UpstreamCatalogVoice } from './speech-provider.js';
import { callUpstream, upstreamFailure, upstreamJson, type UpstreamCall } from './upstream-http.js';

export const ELEVENLABS_OUTPUT_FORMAT = 'mp3_44100_128';
/** The catalog is read again after this long (clones and deletions made here clear it at once). */
export const CATALOG_TTL_MS = 60_000;

/** Characters one request may carry, by model (ElevenLabs' published limits); others get the smallest. */
const MODEL_MAX_CHARACTERS: Record<string, number> = {
  eleven_v3: 3_000,
  eleven_multilingual_v2: 10_000,
  eleven_flash_v2_5: 40_000,
  eleven_turbo_v2_5: 40_000,
  eleven_flash_v2: 30_000,
  eleven_turbo_v2: 30_000,
};
export const maxCharactersFor = (model: string) => MODEL_MAX_CHARACTERS[model] ?? 3_000;

interface TimestampedAnswer {
  audio_base64?: unknown;
  alignment?: unknown;
}

interface VoiceEntry {
  voice_id?: unknown;
  name?: unknown;
  category?: unknown;
  description?: unknown;
  preview_url?: unknown;
  labels?: Record<string, unknown> | null;
  created_at_unix?: unknown;
  verified_languages?: Array<{ language?: unknown }> | null;
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

export interface ElevenLabsOptions {
  retryPauseMs?: number;
  now?: () => number;
}

export function elevenLabsProvider(config: UpstreamConfig, options: ElevenLabsOptions = {}): SpeechProvider {
  const now = options.now ?? Date.now;
  const call = (signal?: AbortSignal): UpstreamCall => ({ config, signal, retryPauseMs: options.retryPauseMs });
  const auth = { 'xi-api-key': config.apiKey };
  let cached: { at: number; voices: UpstreamCatalogVoice[] } | undefined;

  async function speakPart(order: SpeechOrder, text: string, index: number, parts: string[], signal: AbortSignal) {
    const upstream = order.upstream!;
    const what = parts.length > 1 ? `the speech of part ${index + 1} of ${parts.length}` : 'the speech';
    const response = await callUpstream(call(signal), {
      path: `/v1/text-to-speech/${encodeURIComponent(upstream.voiceId)}/with-timestamps?output_format=${ELEVENLABS_OUTPUT_FORMAT}`,
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json' },
      body: () =>
        JSON.stringify({
          text,
          model_id: upstream.modelId,
          ...(Object.keys(upstream.settings).length > 0 ? { voice_settings: upstream.settings } : {}),
          // The neighbouring text keeps the intonation continuous across the parts.
          ...(index > 0 ? { previous_text: parts[index - 1] } : {}),
          ...(index < parts.length - 1 ? { next_text: parts[index + 1] } : {}),
        }),
      what,
    });
    const answer = upstreamJson<TimestampedAnswer>(config, response, 'JSON with audio and its alignment');
    if (typeof answer.audio_base64 !== 'string' || !isCharacterAlignment(answer.alignment)) {
      throw upstreamFailure(config, `answered ${what} without audio_base64 and a character alignment.`);
    }
    let frames: Mp3Frames;
    try {
      frames = readMp3Frames(Buffer.from(answer.audio_base64, 'base64'));
    } catch (error) {
      if (error instanceof Mp3FormatError) throw upstreamFailure(config, `answered ${what} with audio that is not MP3 (${error.message}).`);
      throw error;
    }
    return { frames, alignment: answer.alignment };
  }

  return {
    label: 'ElevenLabs',
    async speak(order, signal): Promise<SpokenScript> {
      if (!order.upstream) throw new Error('ElevenLabs needs the voice to speak with');
      const parts = chunkScript(order.script, maxCharactersFor(order.upstream.modelId ?? ''));
      const spoken: Mp3Frames[] = [];
      const words: TimedWord[] = [];
      let offset = 0;
      // One part after another: the provider's concurrency limit is per account.
      const sent: number[] = [];
      for (const [index, text] of parts.entries()) {
        // A failure after answered parts still says what they cost.
        const part = await speakPart(order, text, index, parts, signal).catch((error: unknown) => {
          throw withSpentCharacters(error, sent);
        });
        sent.push([...text].length);
        words.push(...wordsFromAlignment(part.alignment, offset));
        offset += part.frames.durationSeconds;
        spoken.push(part.frames);
      }
      const joined = joinMp3(spoken);
      return { mp3: joined.data, words, durationSeconds: joined.durationSeconds, upstreamCharacters: parts.map((part) => [...part].length) };
    },

    async cloneVoice(sample) {
      const response = await callUpstream(call(), {
        path: '/v1/voices/add',
        headers: { ...auth, accept: 'application/json' },
        body: () => {
          const form = new FormData();
          form.set('name', sample.name);
          form.append('files', new Blob([new Uint8Array(sample.data)], { type: sample.mimeType }), sample.filename);
          if (sample.description) form.set('description', sample.description);
          form.set('remove_background_noise', String(sample.removeNoise));
          return form;
        },
        what: 'the voice clone',
      });
      const voiceId = upstreamJson<{ voice_id?: unknown }>(config, response, 'JSON with the new voice_id').voice_id;
      if (typeof voiceId !== 'string' || !voiceId) throw upstreamFailure(config, 'answered the voice clone without a voice_id.');
      cached = undefined;
      return voiceId;
    },

    async deleteVoice(upstreamId) {
      await callUpstream(call(), { path: `/v1/voices/${encodeURIComponent(upstreamId)}`, method: 'DELETE', headers: auth, what: 'the deletion of the voice', accept: [404] });
      cached = undefined;
    },

    async catalog() {
      if (cached && now() - cached.at < CATALOG_TTL_MS) return cached.voices;
      const response = await callUpstream(call(), { path: '/v1/voices', method: 'GET', headers: { ...auth, accept: 'application/json' }, what: 'the voice list' });
      const body = upstreamJson<{ voices?: unknown }>(config, response, 'JSON with a voices list');
      if (!Array.isArray(body.voices)) throw upstreamFailure(config, 'answered the voice list without a voices array.');
      const voices = (body.voices as VoiceEntry[]).filter((voice) => typeof voice?.voice_id === 'string').map(toCatalogVoice);
      cached = { at: now(), voices };
      return voices;
    },

    async check() {
      const response = await callUpstream(call(), { path: '/v1/user', method: 'GET', headers: { ...auth, accept: 'application/json' }, what: 'the account check' });
      const body = upstreamJson<{ subscription?: { tier?: unknown; character_count?: unknown; character_limit?: unknown } }>(config, response, 'JSON about the account');
      const sub = body.subscription;
      return sub && typeof sub.character_count === 'number' && typeof sub.character_limit === 'number'
        ? `${String(sub.tier ?? 'account')} tier, ${sub.character_count.toLocaleString('en-US')} of ${sub.character_limit.toLocaleString('en-US')} characters used`
        : 'the key is accepted';
    },
  };
}

function toCatalogVoice(voice: VoiceEntry): UpstreamCatalogVoice {
  const labels = voice.labels ?? {};
  return {
    voice_id: voice.voice_id as string,
    name: textOrNull(voice.name) ?? (voice.voice_id as string),
    gender: textOrNull(labels.gender),
    accent: textOrNull(labels.accent),
    age: textOrNull(labels.age),
    language: textOrNull(labels.language) ?? textOrNull(voice.verified_languages?.[0]?.language),
    use_case: textOrNull(labels.use_case) ?? textOrNull(labels['use case']),
    description: textOrNull(voice.description) ?? textOrNull(labels.description),
    preview_url: textOrNull(voice.preview_url),
    category: textOrNull(voice.category),
    createdAt: typeof voice.created_at_unix === 'number' ? voice.created_at_unix : null,
  };
}
