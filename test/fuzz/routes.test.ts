/**
 * Fuzzes every route of the route table against `serve` on an ephemeral port: whatever arrives,
 * the answer is never a 5xx, every 4xx carries the service's JSON error body, and a refused
 * request leaves the database as it was. Faults stay off, so even the spec's 502 must not appear.
 * Runs are bounded (FUZZ_RUNS per path, default 50) to keep the suite well under a minute.
 */
import fc from 'fast-check';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes, type RouteName } from '../../src/core/routes.js';
import { Engine } from '../../src/engine/engine.js';
import { setWorkSetting } from '../../src/engine/simulated-work.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { upload, wavSample } from '../support/audio-fixtures.js';
import { tempDataDir } from '../support/engines.js';
import { startElevenLabsFixture, type ElevenLabsFixture } from '../support/elevenlabs-fixture-server.js';
import { userDataDigest, worldDigest } from './database-digest.js';
import { requestsFor, type FuzzKeys, type FuzzRequest } from './requests.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
/** A failure prints its seed; FUZZ_SEED=<seed> replays it. */
const options = { numRuns: RUNS, ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}) };

describe('fuzz: every route of the route table through serve', () => {
  const dataDir = tempDataDir('tubekit-fuzz-');
  // Nobody runs jobs (serve is started without workers), so the database moves only with requests.
  // ElevenLabs is a fixture API, so its routes reach their handlers (without a key they answer 503).
  const speechEnv: NodeJS.ProcessEnv = {};
  const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' }, speechSettings: { env: speechEnv } });
  let elevenLabs: ElevenLabsFixture;
  let server: RunningServer;
  let keys: FuzzKeys;
  let worldBefore: Record<string, string>;
  let known: unknown[];

  beforeAll(async () => {
    elevenLabs = await startElevenLabsFixture({ audioSeconds: 5 });
    Object.assign(speechEnv, { TUBEKIT_ELEVENLABS_API_KEY: elevenLabs.key, TUBEKIT_ELEVENLABS_BASE_URL: elevenLabs.baseUrl });
    const world = await engine.reseedWorld({ seed: 13, channels: 300, terminated: 200 });
    setWorkSetting(engine.settings, { preset: 'instant' });
    server = await startServer({ engine, port: 0, workers: 0 });
    const ultimate = (await engine.identity.createUserWithKey('ultimate', ['generations']));
    keys = {
      ultimate: ultimate.key,
      starter: (await engine.identity.createUserWithKey('starter', [])).key,
      none: (await engine.identity.createUserWithKey('none', [])).key,
    };
    // Something for ids to find: folders 1–2, an alert, a stealth clone.
    const user = (await engine.authenticate(ultimate.key));
    await engine.handle('folders.create', { name: 'First' }, user);
    await engine.handle('folders.create', { name: 'Second' }, user);
    await engine.handle('alerts.create', { name: 'Outliers' }, user);
    await engine.handle('voices.stealth.clone', { displayName: 'Me', audioFile: upload(wavSample(1)) }, user);
    // The checks' index copies the world's pre-checked verdicts on its first use (world data, see
    // check-index.ts): done here, so that copy is not taken for a write of the first request.
    await engine.handle('cms.networks', {}, user);
    // A few real channels, so some requests reach the handlers; no real video (downloads render).
    const channels = world.sampleChannels(3).map((channel) => channel.channel_id);
    known = [...channels, channels, channels.join(',')];
    worldBefore = worldDigest(engine.db);
  });

  afterAll(async () => {
    await elevenLabs?.close();
    await server?.close();
    engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function send(request: FuzzRequest): Promise<{ status: number; contentType: string; text: string }> {
    const response = await fetch(`${server.url}${request.url}`, { method: request.method, headers: request.headers, body: request.body });
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
  }

  /** The answer's verdict, as one line fast-check can print with its counterexample. */
  async function check(request: FuzzRequest): Promise<void> {
    const before = userDataDigest(engine.db);
    const answer = await send(request);
    const seen = `${request.method} ${request.url.slice(0, 200)} → ${answer.status} ${answer.text.slice(0, 300)}`;
    expect(answer.status, seen).toBeLessThan(500);
    if (answer.status < 400) return;
    expect(answer.contentType, seen).toMatch(/^application\/json/);
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    expect(body, seen).toMatchObject({ success: false, error: expect.any(String), code: expect.any(String) });
    expect(Object.keys(body).every((key) => ['success', 'error', 'code', 'hint'].includes(key)), seen).toBe(true);
    expect(userDataDigest(engine.db), `${seen}\nchanged the database`).toEqual(before);
  }

  for (const name of Object.keys(routes) as RouteName[]) {
    const route = routes[name];
    for (const url of [route.path, ...(route.aliases ?? [])]) {
      it(`${route.method} ${url} (${name})`, async () => {
        await fc.assert(fc.asyncProperty(requestsFor(route, url, keys, known), check), options);
      });
    }
  }

  it('answers any method on any path of the table without a 5xx', async () => {
    const paths = fc.constantFrom(...Object.values(routes).map((route) => route.path.replace(/:[a-z_]+/g, '1')));
    await fc.assert(
      fc.asyncProperty(paths, fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'), async (path, method) => {
        await check({ method, url: path, headers: { authorization: `Bearer ${keys.ultimate}` } });
      }),
      options,
    );
  });

  it('leaves the sample world as it was', () => {
    expect(worldDigest(engine.db)).toEqual(worldBefore);
  });
});
