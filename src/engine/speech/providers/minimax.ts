/**
 * MiniMax as the alt provider, with the operator's key: a clone uploads the sample (files API,
 * purpose voice_clone) and clones it under a voice id of ours; speech is its t2a call with the
 * hosted `speed`, `pitch` and `volume`, timed by the sentence subtitles it returns; deletion is
 * its delete_voice. MiniMax reports many failures inside a 200 answer (`base_resp`): those are
 * failures too. This module knows MiniMax's wire format and nothing else.
 */
import { randomBytes } from 'node:crypto';
import { joinMp3, Mp3FormatError, readMp3Frames, type Mp3Frames } from '../mp3-frames.js';
import { chunkScript } from '../sentence-chunks.js';
import type { TimedWord } from '../srt.js';
import type { UpstreamConfig } from './speech-settings.js';
import { withSpentCharacters, type SpeechProvider, type SpokenScript } from './speech-provider.js';
import { callUpstream, upstreamFailure, upstreamJson, type UpstreamCall, type UpstreamResponse } from './upstream-http.js';

export const MINIMAX_MODEL = 'speech-02-hd';
/** MiniMax takes under 10,000 characters a request; half leaves room for its own counting. */
export const MINIMAX_MAX_CHARACTERS = 5_000;
const SUBTITLE_TIMEOUT_MS = 30_000;

interface BaseAnswer {
  base_resp?: { status_code?: unknown; status_msg?: unknown };
}

interface SubtitleEntry {
  text?: unknown;
  time_begin?: unknown;
  time_end?: unknown;
}

export function minimaxProvider(config: UpstreamConfig, options: { retryPauseMs?: number } = {}): SpeechProvider {
  const call = (signal?: AbortSignal): UpstreamCall => ({ config, signal, retryPauseMs: options.retryPauseMs });
  const auth = { authorization: `Bearer ${config.apiKey}` };

  /** The answer's JSON when `base_resp` says success; a 502 with MiniMax's own words otherwise. */
  function checked<T extends BaseAnswer>(response: UpstreamResponse, what: string): T {
    const body = upstreamJson<T>(config, response, `JSON answering ${what}`);
    const code = body.base_resp?.status_code;
    if (code !== 0) {
      const message = typeof body.base_resp?.status_msg === 'string' ? body.base_resp.status_msg : 'no message';
      throw upstreamFailure(config, code === undefined ? `answered ${what} without a base_resp.` : `refused ${what} (status_code ${String(code)}): ${message}.`);
    }
    return body;
  }

  const postJson = async <T extends BaseAnswer>(path: string, body: unknown, what: string, signal?: AbortSignal) =>
    checked<T>(await callUpstream(call(signal), { path, headers: { ...auth, 'content-type': 'application/json' }, body: () => JSON.stringify(body), what }), what);

  async function speakPart(text: string, order: Parameters<SpeechProvider['speak']>[0], what: string, signal: AbortSignal) {
    const settings = order.upstream!.settings;
    const answer = await postJson<BaseAnswer & { data?: { audio?: unknown; subtitle_file?: unknown } }>(
      '/v1/t2a_v2',
      {
        model: order.upstream!.modelId ?? MINIMAX_MODEL,
        text,
        stream: false,
        voice_setting: { voice_id: order.upstream!.voiceId, speed: settings.speed ?? 1, vol: settings.volume ?? 1, pitch: settings.pitch ?? 0 },
        audio_setting: { sample_rate: 32000, bitrate: 128000, format: 'mp3', channel: 1 },
        subtitle_enable: true,
      },
      what,
      signal,
    );
    const audio = answer.data?.audio;
    if (typeof audio !== 'string' || !/^(?:[0-9a-f]{2})+$/i.test(audio)) throw upstreamFailure(config, `answered ${what} without hex audio.`);
    let frames: Mp3Frames;
    try {
      frames = readMp3Frames(Buffer.from(audio, 'hex'));
    } catch (error) {
      if (error instanceof Mp3FormatError) throw upstreamFailure(config, `answered ${what} with audio that is not MP3 (${error.message}).`);
      throw error;
    }
    const subtitles = typeof answer.data?.subtitle_file === 'string' ? await readSubtitles(answer.data.subtitle_file, what, signal) : null;
    return { frames, subtitles };
  }

  /** Sentence timings from the subtitle file MiniMax links to (on its storage: never sent the key). */
  async function readSubtitles(url: string, what: string, signal: AbortSignal): Promise<TimedWord[]> {
    let entries: unknown;
    try {
      const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(SUBTITLE_TIMEOUT_MS)]) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      entries = await response.json();
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      throw upstreamFailure(config, `linked subtitles for ${what} that could not be read (${(error as Error).message}).`);
    }
    if (!Array.isArray(entries)) throw upstreamFailure(config, `linked subtitles for ${what} that are not a list.`);
    return (entries as SubtitleEntry[])
      .filter((entry) => typeof entry.text === 'string' && typeof entry.time_begin === 'number' && typeof entry.time_end === 'number')
      .map((entry) => ({ text: entry.text as string, startMs: entry.time_begin as number, endMs: entry.time_end as number }));
  }

  return {
    label: 'MiniMax',
    async speak(order, signal): Promise<SpokenScript> {
      if (!order.upstream) throw new Error('MiniMax needs the voice to speak with');
      const parts = chunkScript(order.script, MINIMAX_MAX_CHARACTERS);
      const spoken: Mp3Frames[] = [];
      const words: TimedWord[] = [];
      let offset = 0;
      const sent: number[] = [];
      for (const [index, text] of parts.entries()) {
        const what = parts.length > 1 ? `the speech of part ${index + 1} of ${parts.length}` : 'the speech';
        // A failure after answered parts still says what they cost.
        const part = await speakPart(text, order, what, signal).catch((error: unknown) => {
          throw withSpentCharacters(error, sent);
        });
        sent.push([...text].length);
        // Without subtitles the part is one cue: its text over its whole length.
        const timings = part.subtitles ?? [{ text, startMs: 0, endMs: part.frames.durationSeconds * 1000 }];
        words.push(...timings.map((word) => ({ ...word, startMs: word.startMs + offset * 1000, endMs: word.endMs + offset * 1000 })));
        offset += part.frames.durationSeconds;
        spoken.push(part.frames);
      }
      const joined = joinMp3(spoken);
      return { mp3: joined.data, words, durationSeconds: joined.durationSeconds, upstreamCharacters: parts.map((part) => [...part].length) };
    },

    async cloneVoice(sample) {
      const uploaded = checked<BaseAnswer & { file?: { file_id?: unknown } }>(
        await callUpstream(call(), {
          path: '/v1/files/upload',
          headers: auth,
          body: () => {
            const form = new FormData();
            form.set('purpose', 'voice_clone');
            form.append('file', new Blob([new Uint8Array(sample.data)], { type: sample.mimeType }), sample.filename);
            return form;
          },
          what: 'the upload of the sample',
        }),
        'the upload of the sample',
      );
      const fileId = uploaded.file?.file_id;
      if (typeof fileId !== 'number' && typeof fileId !== 'string') throw upstreamFailure(config, 'answered the upload of the sample without a file_id.');
      // MiniMax's voice ids start with a letter and are at least 8 characters long.
      const voiceId = `tubekit${randomBytes(8).toString('hex')}`;
      await postJson('/v1/voice_clone', { file_id: fileId, voice_id: voiceId, need_noise_reduction: sample.removeNoise }, 'the voice clone');
      return voiceId;
    },

    async deleteVoice(upstreamId) {
      await postJson('/v1/delete_voice', { voice_type: 'voice_cloning', voice_id: upstreamId }, 'the deletion of the voice');
    },

    async check() {
      await postJson('/v1/get_voice', { voice_type: 'voice_cloning' }, 'the voice list');
      return 'the key is accepted';
    },
  };
}
