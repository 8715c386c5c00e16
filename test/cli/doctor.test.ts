/**
 * `tubekit doctor`: one line a check with ✓/✗ and the fix, `--json` for CI, and exit 0 only when
 * everything the configuration needs is there — yt-dlp and the site only for a live data dir, the
 * service and its key only in remote mode (the key never printed).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CliSandbox, cliSandbox, startServe } from '../support/cli.js';
import { closedOrigin, startFixtureServer } from '../support/platform-fixture-server.js';
import { type MediaFixtureServer, startMediaFixtureServer } from '../support/media-fixture-server.js';

// yt-dlp, ffmpeg and the fixture media they fetch (made on first use) take seconds each, more on a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

interface DoctorBody {
  ok: boolean;
  mode: string;
  checks: Array<{ id: string; title: string; status: string; needed: boolean; summary: string; fix?: string }>;
}

let cli: CliSandbox;
let server: MediaFixtureServer;
beforeAll(async () => {
  server = await startMediaFixtureServer({ stock: ['aac'] });
});
afterAll(() => server?.close());
beforeEach(() => {
  cli = cliSandbox();
});
afterEach(() => cli.cleanup());

async function doctor(env: Record<string, string> = {}, args: string[] = []): Promise<{ body: DoctorBody; exitCode: number; stderr: string }> {
  const result = await cli.run(['doctor', '--json', ...args], { env });
  return { body: JSON.parse(result.stdout) as DoctorBody, exitCode: result.exitCode, stderr: result.stderr };
}

const check = (body: DoctorBody, id: string) => body.checks.find((entry) => entry.id === id)!;

describe('doctor', () => {
  it('passes on the sample world without yt-dlp, which only a live data dir needs; one line a check on stdout', async () => {
    const { body, exitCode } = await doctor({ TUBEKIT_YTDLP: '/nonexistent/yt-dlp' });
    expect(exitCode).toBe(0);
    expect(body.ok).toBe(true);
    expect(body.checks.map((entry) => entry.id)).toEqual(['node', 'ffmpeg', 'ffprobe', 'yt-dlp', 'js-runtime', 'data-dir', 'disk-space', 'database', 'platform', 'vision-model', 'elevenlabs', 'minimax', 'remote']);
    expect(check(body, 'elevenlabs')).toMatchObject({ status: 'skip', needed: false, summary: expect.stringMatching(/not used/) });
    expect(check(body, 'vision-model')).toMatchObject({ status: 'skip', needed: false });
    expect(check(body, 'yt-dlp')).toMatchObject({ status: 'skip', needed: false });
    expect(check(body, 'yt-dlp').fix).toMatch(/releases\/latest/);
    expect(check(body, 'platform')).toMatchObject({ status: 'ok', summary: 'sample world (offline: nothing to reach)' });
    expect(check(body, 'remote')).toMatchObject({ status: 'skip', needed: false });
    const human = await cli.run(['doctor'], { env: { TUBEKIT_YTDLP: '/nonexistent/yt-dlp' } });
    expect(human.exitCode).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(13);
    expect(lines[0]).toMatch(/^✓ Node\.js +v\d+\.\d+\.\d+/);
    expect(lines[3]).toMatch(/^– yt-dlp +\/nonexistent\/yt-dlp: not found; live downloads need it → Install a current yt-dlp/);
  });

  it('on a live data dir needs yt-dlp and a platform that answers, and exits 1 naming what fails', async () => {
    expect((await cli.run(['engine', 'platform', 'live'])).exitCode).toBe(0);
    const good = await doctor({ TUBEKIT_PLATFORM_ORIGIN: server.origin });
    expect(check(good.body, 'platform')).toMatchObject({ status: 'ok', needed: true });
    expect(check(good.body, 'platform').summary).toMatch(/^live, through TUBEKIT_PLATFORM_ORIGIN http:\/\/127\.0\.0\.1:\d+: answers \(HTTP 204 in \d+ ms\)$/);
    expect(check(good.body, 'database')).toMatchObject({ status: 'ok' });
    expect(check(good.body, 'yt-dlp').needed).toBe(true);
    expect(server.seen.filter((request) => request.path === '/generate_204')).toHaveLength(1);

    const bad = await doctor({ TUBEKIT_PLATFORM_ORIGIN: await closedOrigin(), TUBEKIT_YTDLP: '/nonexistent/yt-dlp' });
    expect(bad.exitCode).toBe(1);
    expect(bad.body.ok).toBe(false);
    expect(check(bad.body, 'yt-dlp')).toMatchObject({ status: 'fail', needed: true });
    expect(check(bad.body, 'platform')).toMatchObject({ status: 'fail', needed: true });
    // Only video analysis needs a vision model: on a live data dir its absence is a warning.
    expect(check(bad.body, 'vision-model')).toMatchObject({ status: 'warn', needed: false });
    expect(check(bad.body, 'vision-model').summary).toMatch(/^optional, for video analysis only: /);
    expect(bad.stderr).toContain('2 needed checks fail: yt-dlp, platform.');
    expect(check(bad.body, 'platform').summary).toContain('does not answer');

    const notFound = await startFixtureServer([{ method: 'GET', path: '/generate_204', key: {}, status: 404, body: 'Not Found' }]);
    try {
      const wrong = await doctor({ TUBEKIT_PLATFORM_ORIGIN: notFound.origin });
      expect(check(wrong.body, 'platform')).toMatchObject({ status: 'fail', needed: true });
      expect(check(wrong.body, 'platform').summary).toMatch(/: answers with HTTP 404 \(HTTP 404 in \d+ ms\)$/);
    } finally {
      await notFound.close();
    }

    const old = path.join(cli.dataDir, '..', 'yt-dlp');
    fs.writeFileSync(old, '#!/bin/sh\necho 2022.01.21\n', { mode: 0o755 });
    const tooOld = await doctor({ TUBEKIT_PLATFORM_ORIGIN: server.origin, TUBEKIT_YTDLP: old });
    expect(check(tooOld.body, 'yt-dlp')).toMatchObject({ status: 'fail' });
    expect(check(tooOld.body, 'yt-dlp').summary).toMatch(/^2022\.01\.21 \(\d+ days old\) at .*: older than 2023\.03\.04/);
  });

  it('names the vision model a local engine would use, never its key; a wrong setting fails', async () => {
    const key = 'sk-doctor-secret-0123456789abcdef';
    const configured = await doctor({ TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: 'http://127.0.0.1:11434/v1', TUBEKIT_ANALYSIS_MODEL: 'llava', TUBEKIT_ANALYSIS_API_KEY: key });
    expect(configured.exitCode).toBe(0);
    expect(check(configured.body, 'vision-model')).toMatchObject({ status: 'ok', needed: false });
    expect(check(configured.body, 'vision-model').summary).toMatch(/127\.0\.0\.1.*llava.*key set \(environment\)/);
    expect(JSON.stringify(configured.body) + configured.stderr).not.toContain(key);
    const wrong = await doctor({ TUBEKIT_ANALYSIS_PROVIDER: 'clippy' });
    expect(wrong.exitCode).toBe(1);
    expect(check(wrong.body, 'vision-model')).toMatchObject({ status: 'fail', needed: true });
    expect(check(wrong.body, 'vision-model').summary).toContain('clippy');
  });

  it('finds a damaged database', async () => {
    fs.mkdirSync(cli.dataDir, { recursive: true });
    fs.writeFileSync(path.join(cli.dataDir, 'tubekit.db'), 'SQLite format 3\0'.padEnd(4096, 'x'));
    const { body, exitCode } = await doctor();
    expect(exitCode).toBe(1);
    expect(check(body, 'database')).toMatchObject({ status: 'fail' });
    expect(check(body, 'database').fix).toMatch(/backup/);
  });

  it('in remote mode checks the service and the key, never printing it', async () => {
    const serve = await startServe(cli);
    try {
      const key = (await cli.run(['engine', 'keys', 'create'])).stdout.trim();
      const good = await doctor({ TUBEKIT_BASE_URL: serve.url, TUBEKIT_API_KEY: key });
      expect(good.exitCode).toBe(0);
      expect(check(good.body, 'remote')).toMatchObject({ status: 'ok', summary: `${serve.url} answers; the key (from the environment) is accepted` });
      expect(check(good.body, 'data-dir').status).toBe('skip');
      const refused = await cli.run(['doctor'], { env: { TUBEKIT_BASE_URL: serve.url, TUBEKIT_API_KEY: 'tk_wrongwrongwrongwrong' } });
      expect(refused.exitCode).toBe(1);
      expect(refused.stdout).toMatch(/✗ remote service +.* the key \(from the environment\) is refused/);
      expect(refused.stdout + refused.stderr).not.toContain('tk_wrongwrongwrongwrong');
    } finally {
      await serve.stop();
    }
  });
});
