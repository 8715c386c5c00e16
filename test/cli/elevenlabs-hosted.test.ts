/**
 * Remote mode with `provider=elevenlabs` against a stand-in for the hosted service (not our own
 * `serve`), answering in the shapes hosted-service-notes.md records: the catalog at
 * `GET /api/voices` without our extra fields, generate-simple as multipart with the hosted
 * ElevenLabs fields, a job id that is a string, job-status bodies with `status_detail`, and errors
 * as `{success: false, error}` (the 200-character minimum).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';

const KEY = 'tk_hosted0000000000000000';
const JOB = 'a1b2c3d4-hosted-job';
const VOICES = [
  { voice_id: 'EXAVITQu4vr4xnSDxMaL', name: 'Sarah', gender: 'female', accent: 'american', age: 'young', language: 'en', use_case: 'news', description: 'Soft news voice', preview_url: 'https://cdn.example/sarah.mp3', category: 'premade' },
  { voice_id: 'pFZP5JQG7iQjIQuC4Bku', name: 'Lily', gender: 'female', accent: 'british', age: 'middle aged', language: 'en', use_case: 'narration', description: 'Velvety actress', preview_url: null, category: 'premade' },
  { voice_id: 'JBFqnCBsd6RMkjVDRZzb', name: 'George', gender: 'male', accent: 'british', age: 'middle aged', language: 'en', use_case: 'narration', description: 'Warm narrator', preview_url: null, category: 'premade' },
];

let cli: CliSandbox;
let server: http.Server;
let baseUrl: string;
const seen: Array<{ method: string; path: string; query: URLSearchParams; authorization?: string; contentType?: string; fields?: Record<string, string> }> = [];
let statusReads = 0;

beforeAll(async () => {
  cli = cliSandbox();
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void answer(request, Buffer.concat(chunks), response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  cli.cleanup();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
  statusReads = 0;
});

async function answer(request: http.IncomingMessage, body: Buffer, response: http.ServerResponse): Promise<void> {
  const json = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  const url = new URL(request.url!, baseUrl);
  const entry: (typeof seen)[number] = { method: request.method!, path: url.pathname, query: url.searchParams, authorization: request.headers.authorization, contentType: request.headers['content-type'] };
  seen.push(entry);
  if (request.headers.authorization !== `Bearer ${KEY}` && request.headers['x-api-key'] !== KEY) return json(401, { success: false, error: 'Invalid API key' });
  if (request.method === 'GET' && url.pathname === '/api/voices') {
    const page = Number(url.searchParams.get('page') ?? 0);
    const size = Number(url.searchParams.get('page_size') ?? 30);
    const gender = url.searchParams.get('gender');
    const accent = url.searchParams.get('accent');
    const matching = VOICES.filter((voice) => (!gender || voice.gender === gender) && (!accent || voice.accent === accent.toLowerCase()));
    return json(200, { success: true, voices: matching.slice(page * size, (page + 1) * size), has_more: matching.length > (page + 1) * size });
  }
  if (request.method === 'POST' && url.pathname === '/api/generate-simple') {
    const form = await new Request(url, { method: 'POST', headers: { 'content-type': request.headers['content-type'] ?? '' }, body }).formData();
    entry.fields = Object.fromEntries([...form.entries()].map(([name, value]) => [name, String(value)]));
    if ((entry.fields.script ?? '').length < 200) return json(400, { success: false, error: 'Text must be at least 200 characters' });
    return json(200, { success: true, job_id: JOB, status: 'pending' });
  }
  if (request.method === 'GET' && url.pathname === `/api/job-status/${JOB}`) {
    statusReads += 1;
    if (statusReads === 1) return json(200, { success: true, job_id: JOB, status: 'processing', status_detail: 'generating_audio', status_detail_message: 'Generating audio with ElevenLabs' });
    return json(200, { success: true, job_id: JOB, status: 'completed', message: 'Audio ready', audio_url: `${baseUrl}/files/${JOB}.mp3`, transcript_url: `${baseUrl}/files/${JOB}.srt` });
  }
  json(404, { success: false, error: 'Not found' });
}

const env = () => ({ TUBEKIT_BASE_URL: baseUrl, TUBEKIT_API_KEY: KEY });
const SCRIPT = 'The tide came in slowly over the flats, and the birds rose all at once. '.repeat(4).trim();

it('lists the hosted ElevenLabs catalog with its filters, in the hosted shape', async () => {
  const listed = await cli.run(['voices', 'list', '--provider', 'elevenlabs', '--gender', 'female', '--accent', 'British', '--page-size', '10', '--json'], { env: env() });
  expect(listed.stderr).toBe('');
  expect(listed.exitCode).toBe(0);
  expect(JSON.parse(listed.stdout)).toMatchObject({ success: true, voices: [{ voice_id: 'pFZP5JQG7iQjIQuC4Bku', name: 'Lily', accent: 'british' }], has_more: false });
  expect(seen).toHaveLength(1);
  expect(seen[0]!.path).toBe('/api/voices');
  expect(Object.fromEntries(seen[0]!.query)).toMatchObject({ gender: 'female', accent: 'British', page_size: '10' });
  const human = await cli.run(['voices', 'list', '--provider', 'elevenlabs'], { env: env() });
  expect(human.exitCode).toBe(0);
  for (const voice of VOICES) expect(human.stdout).toContain(voice.voice_id);
});

it('generates with provider=elevenlabs and its hosted fields, and follows the hosted job to its files', async () => {
  const args = ['generate', SCRIPT, '--provider', 'elevenlabs', '--voice', 'JBFqnCBsd6RMkjVDRZzb', '--model', 'eleven_v3', '--stability', '0.4', '--similarity-boost', '0.8', '--style', '0.1', '--speed', '1.1', '--srt', '--watch', '--json'];
  const generated = await cli.run(args, { env: env() });
  expect(generated.exitCode).toBe(0);
  const body = JSON.parse(generated.stdout);
  expect(body).toMatchObject({ job_id: JOB, status: 'completed', audio_url: `${baseUrl}/files/${JOB}.mp3`, transcript_url: `${baseUrl}/files/${JOB}.srt` });
  const submit = seen.find((request) => request.path === '/api/generate-simple')!;
  expect(submit.contentType).toMatch(/^multipart\/form-data; boundary=/);
  expect(submit.fields).toMatchObject({ script: SCRIPT, voice_id: 'JBFqnCBsd6RMkjVDRZzb', provider: 'elevenlabs', model_id: 'eleven_v3', stability: '0.4', similarity_boost: '0.8', style: '0.1', speed: '1.1', generate_srt: expect.stringMatching(/^(true|1)$/) });
  // Nothing of the other providers goes with it.
  for (const field of ['temperature', 'speaking_rate', 'stealth_model', 'pitch', 'volume']) expect(submit.fields).not.toHaveProperty(field);
  expect(statusReads).toBe(2);
});

it('shows the hosted error body of a refused generation, exiting non-zero', async () => {
  const refused = await cli.run(['generate', 'Too short.', '--provider', 'elevenlabs', '--voice', 'JBFqnCBsd6RMkjVDRZzb'], { env: env() });
  expect(refused.exitCode).not.toBe(0);
  expect(refused.stderr).toContain('Text must be at least 200 characters');
  expect(refused.stdout).toBe('');
});
