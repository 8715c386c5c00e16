/**
 * Downloads in a fleet: three real `tubekit serve` processes, each with its own data dir, sharing
 * one PostgreSQL database (`--store`) and one files dir (`--files-dir`). A user's download cap
 * holds across all of them, and identical requests arriving at different servers are rendered
 * once: one server makes the file in the shared directory, the others wait for it and serve it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, printedUrl, type CliSandbox } from '../support/cli.js';
import { createTestDatabase } from '../support/postgres.js';

interface Server {
  sandbox: CliSandbox;
  child: ReturnType<CliSandbox['spawn']>;
  url: string;
}

let storeUrl: string;
let filesDir: string;
const servers: Server[] = [];
let video: { url: string };

async function startServer(): Promise<Server> {
  const sandbox = cliSandbox();
  const child = sandbox.spawn(['serve', '--port', '0', '--alerts-every', '0', '--workers', '0', '--files-dir', filesDir], { env: { TUBEKIT_STORE: storeUrl } });
  return { sandbox, child, url: await printedUrl(child) };
}

/** A CLI command on the fleet's store, from a data dir of its own (another machine). */
async function fleetCli(args: string[]): Promise<string> {
  const sandbox = cliSandbox();
  try {
    const result = await sandbox.run(args, { env: { TUBEKIT_STORE: storeUrl } });
    if (result.exitCode !== 0) throw new Error(`tubekit ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
    return result.stdout.trim();
  } finally {
    sandbox.cleanup();
  }
}

const download = async (server: Server, apiKey: string, body: Record<string, unknown>) => {
  const response = await fetch(`${server.url}/api/download-video`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
};

describe('downloads across a fleet of serve processes (one PostgreSQL, one files dir)', () => {
  beforeAll(async () => {
    storeUrl = await createTestDatabase();
    filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-fleet-files-'));
    servers.push(...(await Promise.all([startServer(), startServer(), startServer()])));
    const videos = JSON.parse(await fleetCli(['--json', 'engine', 'sample', 'videos', '--limit', '40'])).videos as { url: string; captions: string | null; kind: string }[];
    video = videos.find((each) => each.captions === 'human' && each.kind === 'long')!;
    // Renders take a second, so the concurrent requests below overlap.
    await fleetCli(['engine', 'durations', '1000']);
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) {
      server.child.kill('SIGTERM');
      await server.child;
      server.sandbox.cleanup();
    }
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
});
