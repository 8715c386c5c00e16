/**
 * Downloads and voices in a fleet: three real `tubekit serve` processes, each with its own data
 * dir, sharing one PostgreSQL database (`--store`) and one files dir (`--files-dir`). A user's
 * download cap holds across all of them, identical requests arriving at different servers are
 * rendered once (one server makes the file in the shared directory, the others wait for it and
 * serve it), and a voice cloned on one server is listed, capped and deleted on the others.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavSample } from '../support/audio-fixtures.js';
import { Fleet, type FleetServer } from '../support/fleet.js';
import { createTestDatabase } from '../support/postgres.js';

type Server = FleetServer;

const fleet = new Fleet();
const { servers } = fleet;
let filesDir: string;
let video: { url: string };

const startServer = () => fleet.start(['--workers', '0', '--files-dir', filesDir]);
const fleetCli = (args: string[]) => fleet.cli(args);

const download = async (server: Server, apiKey: string, body: Record<string, unknown>) => {
  const response = await fetch(`${server.url}/api/download-video`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

const clone = async (server: Server, apiKey: string, name: string) => {
  const form = new FormData();
  form.set('displayName', name);
  form.set('audioFile', new Blob([wavSample(3)], { type: 'audio/wav' }), 'sample.wav');
  const response = await fetch(`${server.url}/api/voices/clone`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

const clonesListed = async (server: Server, apiKey: string) => {
  const response = await fetch(`${server.url}/api/voices/stealth`, { headers: { authorization: `Bearer ${apiKey}` } });
  return ((await response.json()) as { voices: { voice_id: string; is_cloned?: boolean }[] }).voices.filter((voice) => voice.voice_id.startsWith('clone_')).map((voice) => voice.voice_id);
};

const samplesKept = () => {
  const dir = path.join(filesDir, 'samples', 'stealth');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

describe('downloads and voices across a fleet of serve processes (one PostgreSQL, one files dir)', () => {
  beforeAll(async () => {
    fleet.storeUrl = await createTestDatabase();
    filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-fleet-files-'));
    await Promise.all([startServer(), startServer(), startServer()]);
    const videos = JSON.parse(await fleetCli(['--json', 'engine', 'sample', 'videos', '--limit', '40'])).videos as { url: string; captions: string | null; kind: string }[];
    video = videos.find((each) => each.captions === 'human' && each.kind === 'long')!;
    // Renders take a second, so the concurrent requests below overlap.
    await fleetCli(['engine', 'durations', '1000']);
  }, 120_000);

  afterAll(async () => {
    await fleet.stop();
    fs.rmSync(filesDir, { recursive: true, force: true });
  });

  it('holds a download cap of 3 across the servers under 20 concurrent requests', async () => {
    // Professional: 3 an hour here, and room for every request in parallel (the hourly cap is what is tested).
    await fleetCli(['engine', 'limits', 'set', 'professional', 'downloadsPerHour', '3']);
    await fleetCli(['engine', 'limits', 'set', 'professional', 'parallelDownloads', '50']);
    const key = await fleetCli(['engine', 'keys', 'create', '--plan', 'professional', '--scope', 'generations']);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => download(servers[index % servers.length]!, key, { video_url: video.url, format: 'subtitles', start: 0, end: 10 + index })),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(17);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body.code).toBe('rate_limited');
      expect(refused.body.error).toMatch(/allows 3 downloads an hour/);
    }
  }, 60_000);

  it('renders identical requests once across the servers: one renders into the shared files dir, the others serve that file', async () => {
    const key = await fleetCli(['engine', 'keys', 'create', '--plan', 'ultimate', '--scope', 'generations']);
    const input = { video_url: video.url, format: 'audio', start: 30, end: 32 };
    const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => download(servers[index % servers.length]!, key, input)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // One answer made the file; every other one (on every server) waited for it.
    expect(answers.filter((answer) => answer.body.cached === false)).toHaveLength(1);
    const relative = new Set(answers.map((answer) => decodeURIComponent(answer.body.download_url as string).split('/cdn/')[1]));
    expect(relative.size).toBe(1);
    const file = path.join(filesDir, 'cdn', [...relative][0]!);
    const bytes = fs.readFileSync(file);
    expect(bytes.length).toBe(answers[0]!.body.size_bytes);
    // No leftovers of a render beside it, and each server serves the same bytes from the shared dir.
    expect(fs.readdirSync(path.dirname(file)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    for (const [index, answer] of answers.slice(0, 3).entries()) {
      const served = Buffer.from(await (await fetch(answer.body.download_url as string)).arrayBuffer());
      expect(served.equals(bytes), `server ${index}`).toBe(true);
    }
  }, 60_000);

  it('holds the clone cap across the servers, and lists and deletes a clone made on one server on the others, sample file included', async () => {
    await fleetCli(['engine', 'limits', 'set', 'professional', 'stealthClones', '2']);
    const key = await fleetCli(['engine', 'keys', 'create', '--plan', 'professional']);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => clone(servers[index % servers.length]!, key, `Voice ${index}`)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(answers.filter((answer) => answer.status === 403)).toHaveLength(4);
    const made = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.voice.voice_id as string).sort();
    for (const server of servers) expect((await clonesListed(server, key)).sort()).toEqual(made);
    // The samples are in the shared files dir (named by ids of ours), one for each clone kept and
    // none for the refused ones.
    const sampleOf = new Map((await fleet.query<{ public_id: string; sample_path: string }>('SELECT public_id, sample_path FROM voices')).map((row) => [row.public_id, path.basename(row.sample_path)]));
    expect(samplesKept().sort()).toEqual(made.map((id) => sampleOf.get(id)).sort());
    const deleted = await fetch(`${servers[2]!.url}/api/voices/stealth/${made[0]}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
    expect(deleted.status).toBe(200);
    expect(await clonesListed(servers[0]!, key)).toEqual([made[1]]);
    expect(samplesKept()).toEqual([sampleOf.get(made[1]!)]);
  }, 60_000);
});
