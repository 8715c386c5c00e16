/**
 * A stand-in for the ElevenLabs API on 127.0.0.1 (never the internet), shaped from its public
 * reference and checking what it receives:
 *  - `GET /v1/voices` → `{voices: [{voice_id, name, category, labels, description, preview_url, …}]}`;
 *  - `POST /v1/text-to-speech/{voice_id}/with-timestamps?output_format=mp3_44100_128`, JSON
 *    `{text, model_id, voice_settings?, previous_text?, next_text?}` → `{audio_base64, alignment:
 *    {characters, character_start_times_seconds, character_end_times_seconds}}`: real MP3 frames
 *    (a prefix of a stream LAME encoded once) as long as the alignment, `msPerCharacter` each;
 *  - `POST /v1/voices/add` (multipart `name`, `files`) → `{voice_id}`; `DELETE /v1/voices/{id}`;
 *  - `GET /v1/user` → the subscription.
 * The key must come as `xi-api-key`. A request that breaks a rule gets ElevenLabs' 400/422 and is
 * listed in `violations`; anything unknown is a 404 listed there too. `failNext` queues error
 * answers (401, 429, 5xx, garbage), `hangNext` one that never comes (a timeout).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeMp3 } from '../../src/engine/speech/index.js';
import { readMp3Frames } from '../../src/engine/speech/mp3-frames.js';

export const FIXTURE_MODELS: Record<string, number> = { eleven_multilingual_v2: 10_000, eleven_v3: 3_000, eleven_flash_v2_5: 40_000 };
const RATE = 44_100;
/** Bytes of one 128 kbps frame at 44.1 kHz (417, or 418 with padding). */
const FRAME_SAMPLES = 1152;

export interface FixtureVoice {
  voice_id: string;
  name: string;
  category: string;
  labels: Record<string, string>;
  description: string | null;
  preview_url: string | null;
  created_at_unix?: number;
}

export interface ReceivedSpeech {
  voiceId: string;
  outputFormat: string | null;
  text: string;
  modelId: string;
  voiceSettings: Record<string, number> | undefined;
  previousText?: string;
  nextText?: string;
  /** The alignment it answered with. */
  starts: number[];
  ends: number[];
}

export interface ReceivedClone {
  name: string;
  files: Array<{ name: string; type: string; bytes: number }>;
  removeBackgroundNoise: string | null;
}

export interface FixtureAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string | object;
}

export type ElevenLabsRoute = 'voices' | 'speech' | 'add' | 'delete' | 'user';

export interface ElevenLabsFixture {
  baseUrl: string;
  key: string;
  voices: FixtureVoice[];
  speeches: ReceivedSpeech[];
  clones: ReceivedClone[];
  deleted: string[];
  voiceListReads: number;
  violations: string[];
  /** Every request with its headers, for checks that a key never went anywhere else. */
  raw: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  /** Milliseconds the fixture spent answering speech (its own time, not the caller's). */
  speechMs: number;
  failNext(route: ElevenLabsRoute, answer: FixtureAnswer, times?: number): void;
  /** Answers the next `passes` requests of the route as usual, then fails one with `answer`. */
  failAfter(route: ElevenLabsRoute, passes: number, answer: FixtureAnswer): void;
  hangNext(route: ElevenLabsRoute): void;
  reset(): void;
  close(): Promise<void>;
}

export const PREMADE_VOICES: FixtureVoice[] = [
  { voice_id: 'EXAVITQu4vr4xnSDxMaL', name: 'Sarah', category: 'premade', labels: { gender: 'female', accent: 'american', age: 'young', use_case: 'news', language: 'en' }, description: 'Soft news voice', preview_url: 'https://cdn.example/sarah.mp3', created_at_unix: 1_700_000_000 },
  { voice_id: 'JBFqnCBsd6RMkjVDRZzb', name: 'George', category: 'premade', labels: { gender: 'male', accent: 'british', age: 'middle aged', use_case: 'narration', language: 'en' }, description: 'Warm narrator', preview_url: 'https://cdn.example/george.mp3', created_at_unix: 1_710_000_000 },
  { voice_id: 'XrExE9yKIg1WjnnlVkGX', name: 'Matilda', category: 'premade', labels: { gender: 'female', accent: 'american', age: 'middle aged', use_case: 'narration', language: 'en' }, description: 'Friendly narrator', preview_url: null, created_at_unix: 1_720_000_000 },
  { voice_id: 'pFZP5JQG7iQjIQuC4Bku', name: 'Lily', category: 'premade', labels: { gender: 'female', accent: 'british', age: 'middle aged', use_case: 'narration', language: 'en' }, description: 'Velvety actress', preview_url: null, created_at_unix: 1_705_000_000 },
  { voice_id: 'ErXwobaYiN019PkySvjV', name: 'Antoni', category: 'premade', labels: { gender: 'male', accent: 'american', age: 'young', use_case: 'conversational', language: 'es' }, description: 'Well-rounded', preview_url: null, created_at_unix: 1_690_000_000 },
];

const detail = (status: string, message: string) => ({ detail: { status, message } });

export async function startElevenLabsFixture(options: { key?: string; msPerCharacter?: number; audioSeconds?: number } = {}): Promise<ElevenLabsFixture> {
  const key = options.key ?? 'el-fixture-secret-KEY-0123456789abcdef';
  const msPerCharacter = options.msPerCharacter ?? 20;
  // One real stream, encoded once; each answer is a prefix of its frames.
  const seconds = options.audioSeconds ?? 70;
  const pcm = new Int16Array(RATE * seconds);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(6000 * Math.sin((2 * Math.PI * 180 * i) / RATE) * (0.6 + 0.4 * Math.sin((2 * Math.PI * 3 * i) / RATE)));
  const stream = readMp3Frames(await encodeMp3(pcm, RATE, 128));
  const frameOffsets: number[] = [0];
  for (let at = 0; at < stream.data.length; ) {
    const padding = (stream.data[at + 2]! >> 1) & 1;
    at += 417 + padding;
    frameOffsets.push(at);
  }

  const queued = new Map<ElevenLabsRoute, Array<FixtureAnswer | 'hang' | 'pass'>>();
  let nextVoice = 1;
  const fixture: ElevenLabsFixture = {
    baseUrl: '',
    key,
    voices: PREMADE_VOICES.map((voice) => ({ ...voice, labels: { ...voice.labels } })),
    speeches: [],
    clones: [],
    deleted: [],
    voiceListReads: 0,
    violations: [],
    raw: [],
    speechMs: 0,
    failAfter(route, passes, answer) {
      queued.set(route, [...(queued.get(route) ?? []), ...Array.from({ length: passes }, () => 'pass' as const), answer]);
    },
    failNext(route, answer, times = 1) {
      queued.set(route, [...(queued.get(route) ?? []), ...Array.from({ length: times }, () => answer)]);
    },
    hangNext(route) {
      queued.set(route, [...(queued.get(route) ?? []), 'hang']);
    },
    reset() {
      queued.clear();
      fixture.voices = PREMADE_VOICES.map((voice) => ({ ...voice, labels: { ...voice.labels } }));
      fixture.speeches.length = 0;
      fixture.clones.length = 0;
      fixture.deleted.length = 0;
      fixture.violations.length = 0;
      fixture.raw.length = 0;
      fixture.voiceListReads = 0;
      fixture.speechMs = 0;
    },
    close: async () => undefined,
  };

  function speak(voiceId: string, url: URL, body: Record<string, unknown>): FixtureAnswer {
    const started = performance.now();
    const refuse = (message: string): FixtureAnswer => {
      fixture.violations.push(`speech: ${message}`);
      return { status: 422, body: { detail: [{ loc: ['body'], msg: message, type: 'value_error' }] } };
    };
    if (!fixture.voices.some((voice) => voice.voice_id === voiceId)) return { status: 404, body: detail('voice_not_found', `A voice with the voice_id ${voiceId} was not found.`) };
    const { text, model_id: modelId, voice_settings: settings } = body as { text?: unknown; model_id?: unknown; voice_settings?: Record<string, unknown> };
    if (typeof text !== 'string' || !text.trim()) return refuse('text must be a non-empty string');
    if (typeof modelId !== 'string' || !(modelId in FIXTURE_MODELS)) return refuse(`unknown model_id ${String(modelId)}`);
    if ([...text].length > FIXTURE_MODELS[modelId]!) return refuse(`text is ${[...text].length} characters; ${modelId} takes at most ${FIXTURE_MODELS[modelId]}`);
    if (settings !== undefined) {
      for (const [name, value] of Object.entries(settings)) {
        const [min, max] = name === 'speed' ? [0.7, 1.2] : [0, 1];
        if (!['stability', 'similarity_boost', 'style', 'speed', 'use_speaker_boost'].includes(name)) return refuse(`unknown voice setting ${name}`);
        if (name !== 'use_speaker_boost' && (typeof value !== 'number' || value < min! || value > max!)) return refuse(`${name} must be from ${min} to ${max}`);
      }
    }
    const characters = [...text];
    const starts = characters.map((_, index) => (index * msPerCharacter) / 1000);
    const ends = characters.map((_, index) => ((index + 1) * msPerCharacter) / 1000);
    const frames = Math.ceil((characters.length * msPerCharacter * RATE) / 1000 / FRAME_SAMPLES) + 1;
    if (frames >= frameOffsets.length) throw new Error(`the fixture's stream is too short for ${characters.length} characters`);
    const audio = stream.data.subarray(0, frameOffsets[frames]);
    fixture.speeches.push({
      voiceId,
      outputFormat: url.searchParams.get('output_format'),
      text,
      modelId,
      voiceSettings: settings as Record<string, number> | undefined,
      previousText: body.previous_text as string | undefined,
      nextText: body.next_text as string | undefined,
      starts,
      ends,
    });
    const answer = {
      status: 200,
      body: {
        audio_base64: audio.toString('base64'),
        alignment: { characters, character_start_times_seconds: starts, character_end_times_seconds: ends },
        normalized_alignment: { characters, character_start_times_seconds: starts, character_end_times_seconds: ends },
      },
    };
    fixture.speechMs += performance.now() - started;
    return answer;
  }

  async function route(req: http.IncomingMessage, url: URL, raw: Buffer): Promise<[ElevenLabsRoute, () => FixtureAnswer | Promise<FixtureAnswer>] | undefined> {
    const speech = /^\/v1\/text-to-speech\/([^/]+)\/with-timestamps$/.exec(url.pathname);
    if (req.method === 'POST' && speech) {
      return ['speech', () => {
        if (!String(req.headers['content-type']).startsWith('application/json')) return { status: 415, body: detail('unsupported_media_type', 'Send JSON') };
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          fixture.violations.push('speech: body is not JSON');
          return { status: 400, body: detail('invalid_json', 'Body is not JSON') };
        }
        return speak(decodeURIComponent(speech[1]!), url, body);
      }];
    }
    if (req.method === 'GET' && url.pathname === '/v1/voices') {
      return ['voices', () => {
        fixture.voiceListReads += 1;
        return { status: 200, body: { voices: fixture.voices } };
      }];
    }
    if (req.method === 'POST' && url.pathname === '/v1/voices/add') {
      return ['add', async () => {
        const form = await new Request(`http://fixture${url.pathname}`, { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: new Uint8Array(raw) }).formData();
        const name = form.get('name');
        const files = form.getAll('files').filter((file): file is File => typeof file !== 'string');
        if (typeof name !== 'string' || !name || files.length === 0) {
          fixture.violations.push('add: needs a name and at least one file');
          return { status: 422, body: { detail: [{ msg: 'name and files are required' }] } };
        }
        fixture.clones.push({ name, files: files.map((file) => ({ name: file.name, type: file.type, bytes: file.size })), removeBackgroundNoise: form.get('remove_background_noise') as string | null });
        const voiceId = `clonedVoice${String(nextVoice++).padStart(9, '0')}`;
        fixture.voices.push({ voice_id: voiceId, name, category: 'cloned', labels: {}, description: (form.get('description') as string | null) ?? null, preview_url: null, created_at_unix: 1_800_000_000 + nextVoice });
        return { status: 200, body: { voice_id: voiceId, requires_verification: false } };
      }];
    }
    const del = /^\/v1\/voices\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && del) {
      return ['delete', () => {
        const id = decodeURIComponent(del[1]!);
        const before = fixture.voices.length;
        fixture.voices = fixture.voices.filter((voice) => voice.voice_id !== id);
        if (fixture.voices.length === before) return { status: 404, body: detail('voice_not_found', `A voice with the voice_id ${id} was not found.`) };
        fixture.deleted.push(id);
        return { status: 200, body: { status: 'ok' } };
      }];
    }
    if (req.method === 'GET' && url.pathname === '/v1/user') {
      return ['user', () => ({ status: 200, body: { subscription: { tier: 'creator', character_count: 1234, character_limit: 100_000 } } })];
    }
    return undefined;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      fixture.raw.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const send = (answer: FixtureAnswer) => {
        const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
        res.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json', ...answer.headers });
        res.end(text);
      };
      const matched = await route(req, url, Buffer.concat(chunks));
      if (!matched) {
        fixture.violations.push(`unexpected ${req.method} ${url.pathname}`);
        return send({ status: 404, body: detail('not_found', 'Not found') });
      }
      const [name, answer] = matched;
      if (req.headers['xi-api-key'] !== key) return send({ status: 401, body: detail('invalid_api_key', 'Invalid API key') });
      const next = queued.get(name)?.shift();
      if (next === 'hang') return; // never answered
      if (next && next !== 'pass') return send(next);
      try {
        send(await answer());
      } catch (error) {
        fixture.violations.push(`${name}: ${(error as Error).message}`);
        send({ status: 500, body: detail('fixture_error', (error as Error).message) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fixture.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fixture;
}
