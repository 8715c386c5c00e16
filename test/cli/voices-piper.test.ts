import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';
import { canMakePiperVoice, makePiperVoice } from '../support/piper/piper-voice.js';

// Under CI the voice must be buildable (.ci/run installs python3-onnx): a missing tool fails, never skips.
describe.runIf(canMakePiperVoice() || process.env.CI === 'true')('tubekit CLI (built binary): Piper voices through sherpa-onnx', () => {
  let cli: CliSandbox;
  let model: string;
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    cli = cliSandbox();
    const dir = path.join(cli.dataDir, '..', 'voices');
    fs.mkdirSync(dir, { recursive: true });
    model = makePiperVoice(dir);
    // Stands for a voice published on the web: the model and its config beside it.
    server = http.createServer((req, res) => {
      const file = path.join(dir, path.basename(req.url ?? ''));
      if (!fs.existsSync(file)) return res.writeHead(404).end();
      res.writeHead(200, { 'content-length': fs.statSync(file).size }).end(fs.readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    cli.cleanup();
    await new Promise((resolve) => server.close(resolve));
  });

  it('installs a voice from a path, lists it, speaks with it into MP3 and SRT, and uninstalls it', async () => {
    const installed = await cli.run(['voices', 'install', model, '--json']);
    expect(installed.exitCode).toBe(0);
    expect(JSON.parse(installed.stdout)).toMatchObject({ success: true, voice: { voice_id: 'piper-en_US-test-x_low', language: 'en_US', sample_rate: 16000, license: 'CC0-1.0 (test voice)' } });
    const listed = await cli.run(['voices', 'list', '--provider', 'stealth']);
    expect(listed.stdout).toMatch(/^piper-en_US-test-x_low\ten_US-test-x_low\ten\tstealth\tno$/m);

    const out = path.join(cli.dataDir, '..', 'hello.mp3');
    const spoken = await cli.run(['generate', 'Hello there. This is a Piper voice.', '--voice', 'piper-en_US-test-x_low', '-o', out, '--json']);
    expect(spoken.exitCode).toBe(0);
    const job = JSON.parse(spoken.stdout);
    expect(job).toMatchObject({ status: 'completed', voice_id: 'piper-en_US-test-x_low', transcript_url: expect.stringMatching(/\.srt$/) });
    expect(fs.statSync(out).size).toBeGreaterThan(1000);

    const removed = await cli.run(['voices', 'uninstall', 'en_US-test-x_low']);
    expect(removed.exitCode).toBe(0);
    expect((await cli.run(['voices', 'list', '--provider', 'stealth'])).stdout).not.toMatch(/piper-/);
    expect((await cli.run(['voices', 'uninstall', 'en_US-test-x_low'])).exitCode).toBe(6);
  });

  it('downloads a voice from a URL, checking its SHA-256 when given', async () => {
    const url = `${base}/en_US-test-x_low.onnx`;
    const wrong = await cli.run(['voices', 'install', url, '--sha256', '0'.repeat(64)]);
    expect([wrong.exitCode, wrong.stderr]).toEqual([2, expect.stringMatching(/SHA-256 is [0-9a-f]{64}, not 0{64}; nothing was installed/)]);
    expect((await cli.run(['voices', 'list', '--provider', 'stealth'])).stdout).not.toMatch(/piper-/);
    const digest = createHash('sha256').update(fs.readFileSync(model)).digest('hex');
    const right = await cli.run(['voices', 'install', url, '--sha256', digest, '--name', 'web-voice', '--json']);
    expect(right.exitCode).toBe(0);
    expect(JSON.parse(right.stdout).voice).toMatchObject({ voice_id: 'piper-web-voice', sha256: digest });
    expect((await cli.run(['voices', 'install', `${base}/missing.onnx`])).stderr).toMatch(/HTTP 404/);
  });

  it('answers 503 naming the cause when the sherpa-onnx runtime cannot load, while eSpeak voices keep working', async () => {
    const broken = { TUBEKIT_SHERPA_ONNX: path.join(cli.dataDir, 'no-such-runtime.node') };
    // Processes of their own: the runtime loads once a process.
    const refused = await cli.run(['generate', 'Hello.', '--voice', 'piper-web-voice', '--json'], { env: broken, spawn: true });
    expect(refused.exitCode).toBe(9);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ status: 503, code: 'unavailable', message: expect.stringMatching(/Piper voices are unavailable here: the sherpa-onnx runtime could not load \(Cannot find module/) });
    const espeak = await cli.run(['generate', 'Hello.', '--voice', 'espeak-en-us', '--watch', '--json'], { env: broken, spawn: true });
    expect(JSON.parse(espeak.stdout).status).toBe('completed');
  });
});
