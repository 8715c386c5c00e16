/**
 * Video analysis uploads in a fleet: two engines, each with a data dir of its own, on one
 * PostgreSQL database and one files dir (mounted at a different path on each "machine"). A user's
 * upload to the vision model made through one is reused through the other within 2 hours: the
 * Gemini file's handle and the chat model's frames (kept in the files dir) alike; after 2 hours
 * the other uploads again. The fixture model APIs count what they receive.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { TaskJob } from '../../src/core/schemas/jobs.js';
import type { Service } from '../../src/core/service.js';
import type { Engine } from '../../src/engine/engine.js';
import { UPLOAD_REUSE_MS } from '../../src/engine/features/analysis/uploads.js';
import { LocalService } from '../../src/engine/local-service.js';
import { openEngine } from '../../src/engine/open-engine.js';
import type { SampleVideo } from '../../src/engine/platform/sample/index.js';
import { setWorkSetting } from '../../src/engine/simulated-work.js';
import { parseStoreLocation } from '../../src/engine/store/store-location.js';
import { createTestDatabase } from '../support/postgres.js';
import { startVisionFixture, type VisionFixture } from '../support/vision-fixture-server.js';

const KEY = 'sk-fixture-secret-KEY-0123456789abcdef';
const HEAVY_MS = 180_000;
const WORLD = { seed: 4, channels: 200, terminated: 0 };

const env: NodeJS.ProcessEnv = {};
let fixture: VisionFixture;
let storeUrl: string;
let filesDir: string;
let video: SampleVideo | undefined;
const temporary: string[] = [];
const open: Engine[] = [];

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temporary.push(dir);
  return dir;
};

/** A machine of the fleet: its own data dir, the shared database, and the shared files dir seen through its own mount path. */
async function machine(): Promise<Engine> {
  const mount = path.join(tempDir('tubekit-fleet-mount-'), 'files');
  fs.symlinkSync(filesDir, mount);
  const engine = await openEngine({ dataDir: tempDir('tubekit-fleet-machine-'), filesDir: mount, store: parseStoreLocation(storeUrl), analysisSettings: { env } });
  open.push(engine);
  await engine.reseedWorld(WORLD);
  // Settings are the fleet's: this reaches every machine.
  await setWorkSetting(engine.settings, { preset: 'instant' });
  // The shortest long video: each upload renders it whole.
  video ??= (await engine.platform()).sampleVideos(300).filter((each) => each.kind === 'long').sort((a, b) => a.duration_seconds - b.duration_seconds)[0]!;
  return engine;
}

/** Moves every upload `ms` into the past, behind the engines' backs (their clocks keep running: workers and leases stay alive). */
async function ageUploads(ms: number): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: storeUrl });
  await client.connect();
  try {
    await client.query('UPDATE analysis_uploads SET uploaded_at = uploaded_at - $1', [ms]);
  } finally {
    await client.end();
  }
}

async function analyse(service: Service, prompt: string, media_resolution: 'low' | 'default' = 'low'): Promise<TaskJob & { submittedCached: boolean }> {
  const submitted = await service.call('analysis.submit', { video_url: video!.url, prompt, media_resolution });
  for (let round = 0; round < 40; round++) {
    const job = await service.call('jobs.status', { job_id: submitted.job_id, wait_seconds: 10 });
    if (job.status === 'completed' || job.status === 'failed') return { ...job, submittedCached: submitted.cached };
  }
  throw new Error(`job ${submitted.job_id} did not finish`);
}

beforeAll(async () => {
  fixture = await startVisionFixture();
  storeUrl = await createTestDatabase();
  filesDir = tempDir('tubekit-fleet-files-');
});
beforeEach(() => fixture.reset());
afterEach(async () => {
  for (const engine of open.splice(0)) await engine.close();
});
afterAll(async () => {
  await fixture.close();
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

it('reuses a Gemini upload made through one machine on another within 2 hours, and uploads again after', async () => {
  Object.assign(env, { TUBEKIT_ANALYSIS_PROVIDER: 'gemini', TUBEKIT_ANALYSIS_BASE_URL: fixture.geminiBaseUrl, TUBEKIT_ANALYSIS_MODEL: 'gemini-fixture', TUBEKIT_ANALYSIS_API_KEY: KEY });
  const first = await machine();
  const { key } = await first.identity.createUserWithKey('starter', ['generations']);
  expect(await analyse(new LocalService(first, key), 'What happens?')).toMatchObject({ status: 'completed', cached: false });
  expect(fixture.uploads).toHaveLength(1);
  await first.close();

  const second = await machine();
  const there = new LocalService(second, key);
  await ageUploads(UPLOAD_REUSE_MS - 60_000);
  expect(await analyse(there, 'And then?')).toMatchObject({ status: 'completed', submittedCached: true, cached: true });
  expect(fixture.uploads).toHaveLength(1);
  expect(fixture.generates[1]!.fileUri).toBe(fixture.generates[0]!.fileUri);
  // Past 2 hours of the upload: uploaded again.
  await ageUploads(120_000);
  expect(await analyse(there, 'Once more?')).toMatchObject({ status: 'completed', submittedCached: false, cached: false });
  expect(fixture.uploads).toHaveLength(2);
}, HEAVY_MS);

it("reuses a chat model's frames sampled through one machine on another (the folder is in the shared files dir)", async () => {
  for (const name of Object.keys(env)) delete env[name];
  Object.assign(env, { TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: fixture.chatBaseUrl, TUBEKIT_ANALYSIS_MODEL: 'm', TUBEKIT_ANALYSIS_API_KEY: KEY });
  const [first, second] = [await machine(), await machine()];
  const { key } = await first.identity.createUserWithKey('starter', ['generations']);
  expect(await analyse(new LocalService(first, key), 'What happens?')).toMatchObject({ status: 'completed', cached: false });
  const frameFolders = () => fs.readdirSync(path.join(filesDir, 'analysis-frames'), { recursive: true, encoding: 'utf8' }).filter((entry) => entry.split(path.sep).length === 2);
  const folders = frameFolders();
  expect(folders).toHaveLength(1);
  // Nothing in either machine's own data dir.
  for (const engine of [first, second]) expect(fs.existsSync(path.join(engine.dataDir, 'analysis-frames'))).toBe(false);
  await first.close();

  expect(await analyse(new LocalService(second, key), 'And then?')).toMatchObject({ status: 'completed', submittedCached: true, cached: true });
  expect(fixture.chats).toHaveLength(2);
  expect(fixture.chats[1]!.images.map((image) => image.jpeg)).toEqual(fixture.chats[0]!.images.map((image) => image.jpeg));
  expect(frameFolders()).toEqual(folders);
}, HEAVY_MS);
