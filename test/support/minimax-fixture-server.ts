/**
 * A stand-in for the MiniMax API on 127.0.0.1 (never the internet), shaped from its public
 * reference and checking what it receives (`Authorization: Bearer <key>` on every API call):
 *  - `POST /v1/files/upload` (multipart `purpose=voice_clone`, `file`) → `{file: {file_id, …}, base_resp}`;
 *  - `POST /v1/voice_clone` `{file_id, voice_id, need_noise_reduction}` → `{base_resp}` (the file must
 *    be an uploaded one; the voice id starts with a letter and has at least 8 characters);
 *  - `POST /v1/t2a_v2` `{model, text, voice_setting: {voice_id, speed, vol, pitch}, audio_setting,
 *    subtitle_enable}` → `{data: {audio: <hex MP3>, subtitle_file: <url>}, extra_info, base_resp}`:
 *    real MP3 frames (a prefix of a stream LAME encoded once, 32 kHz), one subtitle entry a sentence;
 *  - `GET /subtitles/{n}.json` (no key: it stands for MiniMax's file storage);
 *  - `POST /v1/delete_voice`, `POST /v1/get_voice`.
 * MiniMax reports failures in `base_resp` of a 200 answer: a wrong key is status_code 1004.
 * Anything unknown is a 404 listed in `violations`. `failNext` queues answers, `hangNext` silence.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeMp3 } from '../../src/engine/speech/index.js';
import { readMp3Frames } from '../../src/engine/speech/mp3-frames.js';
import { splitSentences } from '../../src/engine/speech/sentence-chunks.js';

const RATE = 32_000;
/** 128 kbps at 32 kHz: 576 bytes a frame, never padded. */
const FRAME_BYTES = 576;
const FRAME_SAMPLES = 1152;

export type MinimaxRoute = 'upload' | 'clone' | 't2a' | 'delete' | 'get_voice' | 'subtitles';

export interface MinimaxAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string | object;
}

export interface MinimaxSpeech {
  model: string;
  text: string;
  voiceSetting: { voice_id: string; speed?: number; vol?: number; pitch?: number };
  subtitles: Array<{ text: string; time_begin: number; time_end: number }>;
}

export interface MinimaxFixture {
  baseUrl: string;
  key: string;
  uploads: Array<{ purpose: string; name: string; bytes: number }>;
  clones: Array<{ fileId: number; voiceId: string; needNoiseReduction: unknown }>;
  speeches: MinimaxSpeech[];
  deleted: string[];
  violations: string[];
  raw: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  failNext(route: MinimaxRoute, answer: MinimaxAnswer, times?: number): void;
  hangNext(route: MinimaxRoute): void;
  reset(): void;
  close(): Promise<void>;
}

const ok = { status_code: 0, status_msg: 'success' };

export async function startMinimaxFixture(options: { key?: string; msPerCharacter?: number } = {}): Promise<MinimaxFixture> {
  const key = options.key ?? 'mm-fixture-secret-KEY-0123456789abcdef';
  const msPerCharacter = options.msPerCharacter ?? 20;
  const pcm = new Int16Array(RATE * 40);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(5000 * Math.sin((2 * Math.PI * 220 * i) / RATE));
  const stream = readMp3Frames(await encodeMp3(pcm, RATE, 128));

  const queued = new Map<MinimaxRoute, Array<MinimaxAnswer | 'hang'>>();
  const files = new Set<number>();
  const voices = new Set<string>();
  const subtitleFiles: string[] = [];
  let nextFile = 100;
  const fixture: MinimaxFixture = {
    baseUrl: '',
    key,
    uploads: [],
    clones: [],
    speeches: [],
    deleted: [],
    violations: [],
    raw: [],
    failNext(route, answer, times = 1) {
      queued.set(route, [...(queued.get(route) ?? []), ...Array.from({ length: times }, () => answer)]);
    },
    hangNext(route) {
      queued.set(route, [...(queued.get(route) ?? []), 'hang']);
    },
    reset() {
      queued.clear();
      for (const list of [fixture.uploads, fixture.clones, fixture.speeches, fixture.deleted, fixture.violations, fixture.raw]) list.length = 0;
    },
    close: async () => undefined,
  };

  const refuse = (route: string, message: string): MinimaxAnswer => {
    fixture.violations.push(`${route}: ${message}`);
    return { status: 200, body: { base_resp: { status_code: 2013, status_msg: `invalid params, ${message}` } } };
  };

  function t2a(body: Record<string, unknown>): MinimaxAnswer {
    const setting = body.voice_setting as MinimaxSpeech['voiceSetting'] | undefined;
    const audio = body.audio_setting as { format?: string; sample_rate?: number } | undefined;
    if (typeof body.model !== 'string' || !/^speech-/.test(body.model)) return refuse('t2a', `unknown model ${String(body.model)}`);
    if (typeof body.text !== 'string' || !body.text.trim() || body.text.length >= 10_000) return refuse('t2a', 'text must be 1 to 9,999 characters');
    if (!setting || !voices.has(setting.voice_id)) return { status: 200, body: { base_resp: { status_code: 2054, status_msg: 'voice id not exist' } } };
    if (setting.speed !== undefined && (setting.speed < 0.5 || setting.speed > 2)) return refuse('t2a', 'speed must be 0.5 to 2');
    if (setting.vol !== undefined && (setting.vol <= 0 || setting.vol > 10)) return refuse('t2a', 'vol must be over 0, at most 10');
    if (setting.pitch !== undefined && (!Number.isInteger(setting.pitch) || setting.pitch < -12 || setting.pitch > 12)) return refuse('t2a', 'pitch must be an integer from -12 to 12');
    if (audio?.format !== 'mp3' || audio.sample_rate !== RATE) return refuse('t2a', 'the fixture speaks mp3 at 32000 Hz only');
    let at = 0;
    const subtitles = splitSentences(body.text).map((sentence) => {
      const entry = { text: sentence.trim(), time_begin: at * msPerCharacter, time_end: (at + [...sentence.trimEnd()].length) * msPerCharacter };
      at += [...sentence].length;
      return entry;
    });
    const frames = Math.ceil((at * msPerCharacter * RATE) / 1000 / FRAME_SAMPLES) + 1;
    if (frames * FRAME_BYTES > stream.data.length) throw new Error('the fixture\'s stream is too short');
    subtitleFiles.push(JSON.stringify(subtitles));
    fixture.speeches.push({ model: body.model, text: body.text, voiceSetting: setting, subtitles });
    return {
      status: 200,
      body: {
        data: { audio: stream.data.subarray(0, frames * FRAME_BYTES).toString('hex'), status: 2, subtitle_file: body.subtitle_enable === true ? `${fixture.baseUrl}/subtitles/${subtitleFiles.length - 1}.json` : undefined },
        extra_info: { audio_length: Math.round((frames * FRAME_SAMPLES * 1000) / RATE), audio_sample_rate: RATE, usage_characters: [...body.text].length, audio_format: 'mp3' },
        trace_id: 'fixture',
        base_resp: ok,
      },
    };
  }

  async function route(req: http.IncomingMessage, url: URL, raw: Buffer): Promise<[MinimaxRoute, () => MinimaxAnswer | Promise<MinimaxAnswer>] | undefined> {
    const json = () => JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    if (req.method === 'GET' && /^\/subtitles\/\d+\.json$/.test(url.pathname)) {
      return ['subtitles', () => {
        if (req.headers.authorization) fixture.violations.push('subtitles: the key was sent to the file storage');
        const file = subtitleFiles[Number(/\d+/.exec(url.pathname)![0])];
        return file ? { status: 200, body: JSON.parse(file) as object } : { status: 404, body: 'no such file' };
      }];
    }
    if (req.method !== 'POST') return undefined;
    switch (url.pathname) {
      case '/v1/files/upload':
        return ['upload', async () => {
          const form = await new Request('http://fixture/upload', { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body: new Uint8Array(raw) }).formData();
          const file = form.get('file');
          if (form.get('purpose') !== 'voice_clone' || typeof file === 'string' || !file) return refuse('upload', 'needs purpose=voice_clone and a file');
          const fileId = nextFile++;
          files.add(fileId);
          fixture.uploads.push({ purpose: 'voice_clone', name: file.name, bytes: file.size });
          return { status: 200, body: { file: { file_id: fileId, bytes: file.size, created_at: 1_800_000_000, filename: file.name, purpose: 'voice_clone' }, base_resp: ok } };
        }];
      case '/v1/voice_clone':
        return ['clone', () => {
          const body = json();
          if (!files.has(body.file_id as number)) return refuse('clone', `unknown file_id ${String(body.file_id)}`);
          if (typeof body.voice_id !== 'string' || !/^[A-Za-z][A-Za-z0-9_-]{7,}$/.test(body.voice_id)) return refuse('clone', 'voice_id must start with a letter and have at least 8 characters');
          voices.add(body.voice_id);
          fixture.clones.push({ fileId: body.file_id as number, voiceId: body.voice_id, needNoiseReduction: body.need_noise_reduction });
          return { status: 200, body: { input_sensitive: false, base_resp: ok } };
        }];
      case '/v1/t2a_v2':
        return ['t2a', () => t2a(json())];
      case '/v1/delete_voice':
        return ['delete', () => {
          const body = json();
          if (body.voice_type !== 'voice_cloning' || !voices.delete(body.voice_id as string)) return { status: 200, body: { base_resp: { status_code: 2054, status_msg: 'voice id not exist' } } };
          fixture.deleted.push(body.voice_id as string);
          return { status: 200, body: { voice_id: body.voice_id, created_time: '2026-11-29', base_resp: ok } };
        }];
      case '/v1/get_voice':
        return ['get_voice', () => ({ status: 200, body: { voice_cloning: [...voices].map((voice_id) => ({ voice_id })), base_resp: ok } })];
      default:
        return undefined;
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      fixture.raw.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const send = (answer: MinimaxAnswer) => {
        res.writeHead(answer.status, { 'content-type': typeof answer.body === 'string' ? 'text/plain' : 'application/json', ...answer.headers });
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      };
      const matched = await route(req, url, Buffer.concat(chunks));
      if (!matched) {
        fixture.violations.push(`unexpected ${req.method} ${url.pathname}`);
        return send({ status: 404, body: 'not found' });
      }
      const [name, answer] = matched;
      if (name !== 'subtitles' && req.headers.authorization !== `Bearer ${key}`) {
        return send({ status: 200, body: { base_resp: { status_code: 1004, status_msg: 'login fail: Please carry the API secret key in the Authorization field' } } });
      }
      const next = queued.get(name)?.shift();
      if (next === 'hang') return;
      if (next) return send(next);
      try {
        send(await answer());
      } catch (error) {
        fixture.violations.push(`${name}: ${(error as Error).message}`);
        send({ status: 500, body: (error as Error).message });
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
