/**
 * The vision model from the command line (built binary): `config` keeps its settings in the
 * profile and its key only from a prompt or stdin, never printing it; `analyze --watch` shows the
 * model's answer, the detached worker using the same environment or profile as the command that
 * started it; `serve` uses its own configuration whatever the caller's; the key in no output or log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import { setWorkSetting } from '../../src/engine/simulated-work.js';
import { workerLogFile } from '../../src/engine/jobs/spawn.js';
import { cliSandbox, printedUrl, stopDetachedWorkers, type CliSandbox } from '../support/cli.js';
import { startVisionFixture, type VisionFixture } from '../support/vision-fixture-server.js';

const KEY = 'sk-cli-fixture-0123456789abcdefXYZ';
let fixture: VisionFixture;
const sandboxes: CliSandbox[] = [];

beforeAll(async () => {
  fixture = await startVisionFixture();
});
afterAll(async () => {
  await fixture.close();
});
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) {
    stopDetachedWorkers(sandbox.dataDir);
    sandbox.cleanup();
  }
  fixture.reset();
});

/** A sandbox with a small sample world; the URL of a short with captions (quick to render). */
async function sandboxWithVideo(): Promise<{ cli: CliSandbox; videoUrl: string }> {
  const cli = cliSandbox();
  sandboxes.push(cli);
  const engine = Engine.open({ dataDir: cli.dataDir, jobRunner: { mode: 'none' } });
  try {
    engine.defaultKey();
    const world = await engine.reseedWorld({ seed: 4, channels: 60, terminated: 0 });
    setWorkSetting(engine.settings, { preset: 'instant' });
    const video = world.sampleVideos(200).find((candidate) => candidate.kind === 'short' && candidate.captions !== null && candidate.duration_seconds < 30)!;
    return { cli, videoUrl: video.url };
  } finally {
    engine.close();
  }
}

const chatEnv = () => ({ TUBEKIT_ANALYSIS_PROVIDER: 'openai-compatible', TUBEKIT_ANALYSIS_BASE_URL: fixture.chatBaseUrl, TUBEKIT_ANALYSIS_MODEL: 'cli-model', TUBEKIT_ANALYSIS_API_KEY: KEY });

describe('tubekit config for the vision model', () => {
  it('keeps analysis settings in the profile, refuses bad values, and takes the key only from stdin, never printing it', async () => {
    const cli = cliSandbox();
    sandboxes.push(cli);
    expect((await cli.run(['config', 'set', 'analysis.provider', 'gemini'])).exitCode).toBe(0);
    expect((await cli.run(['config', 'set', 'analysis.model', 'gemini-2.5-pro'])).exitCode).toBe(0);
    expect((await cli.run(['config', 'get', 'analysis.provider'])).stdout).toBe('gemini\n');
    const badProvider = await cli.run(['config', 'set', 'analysis.provider', 'claude']);
    expect(badProvider.exitCode).toBe(2);
    expect(badProvider.stderr).toContain('analysis.provider must be one of openai-compatible, gemini, not "claude"');
    expect((await cli.run(['config', 'set', 'analysis.base_url', 'not a url'])).exitCode).toBe(2);
    expect((await cli.run(['config', 'set', 'analysis.timeout', '-3'])).exitCode).toBe(2);

    // On the command line a key is refused, and not echoed back.
    const onCommandLine = await cli.run(['config', 'set', 'analysis.api_key', KEY]);
    expect(onCommandLine.exitCode).toBe(2);
    expect(onCommandLine.stderr).toContain('analysis.api_key is never given on the command line');
    expect(onCommandLine.stderr + onCommandLine.stdout).not.toContain(KEY);
    expect((await cli.run(['config', 'get', 'analysis.api_key'])).stdout).toBe('');

    const saved = await cli.run(['config', 'set', 'analysis.api_key'], { input: `${KEY}\n` });
    expect(saved.exitCode).toBe(0);
    expect(saved.stderr + saved.stdout).not.toContain(KEY);
    const file = path.join(cli.configDir, 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).profiles.default['analysis.api_key']).toBe(KEY);

    const got = await cli.run(['config', 'get', 'analysis.api_key']);
    expect(got.stdout).toBe('set\n');
    const listed = await cli.run(['config', 'list']);
    expect(listed.stdout).toContain('analysis.api_key\tset');
    expect(listed.stdout).toContain('analysis.provider\tgemini');
    const json = await cli.run(['config', 'list', '--json']);
    expect(JSON.parse(json.stdout).settings).toMatchObject({ 'analysis.provider': 'gemini', 'analysis.model': 'gemini-2.5-pro', 'analysis.api_key': 'set' });
    for (const output of [got, listed, json]) expect(output.stdout + output.stderr).not.toContain(KEY);

    expect((await cli.run(['config', 'unset', 'analysis.api_key'])).exitCode).toBe(0);
    expect((await cli.run(['config', 'get', 'analysis.api_key'])).stdout).toBe('');
  }, 120_000);
});

describe('tubekit analyze with a vision model', () => {
  it('--watch prints the model\'s answer; the detached worker has the command\'s environment, and logs no key', async () => {
    const { cli, videoUrl } = await sandboxWithVideo();
    fixture.answerChat = (chat) => `A short clip, seen in ${chat.images.length} frames.`;
    const watched = await cli.run(['analyze', videoUrl, '--prompt', 'What happens?', '--watch'], { env: chatEnv() });
    expect(watched.exitCode).toBe(0);
    expect(watched.stderr).not.toContain(KEY);
    expect(watched.stdout).toMatch(/^A short clip, seen in \d+ frames\.\n$/);
    expect(fixture.chats).toHaveLength(1);
    expect(fixture.chats[0]).toMatchObject({ model: 'cli-model', authorization: `Bearer ${KEY}` });
    expect(fixture.chats[0]!.text).toContain('What happens?');

    // A failure exits 1 with the job's error, the key redacted even where the API echoed it.
    fixture.failNext('chat', { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}.` } } });
    const refused = await cli.run(['analyze', videoUrl, '--prompt', 'Again?', '--watch'], { env: chatEnv() });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/the vision model \(openai-compatible at 127\.0\.0\.1:\d+, model cli-model\) refused the API key \(HTTP 401\)/);
    expect(refused.stdout + refused.stderr).not.toContain(KEY);
    expect(fs.readFileSync(workerLogFile(cli.dataDir), 'utf8')).toMatch(/refused the API key/);
    expect(fs.readFileSync(workerLogFile(cli.dataDir), 'utf8')).not.toContain(KEY);
  }, 120_000);

  it('runs a job with the settings of the command that submitted it, though a worker of an earlier command is alive', async () => {
    const { cli, videoUrl } = await sandboxWithVideo();
    fixture.answerChat = (chat) => `Answered for ${chat.model}.`;
    const first = await cli.run(['analyze', videoUrl, '--prompt', 'First?', '--watch'], { env: chatEnv() });
    expect(first.stdout).toBe('Answered for cli-model.\n');
    // The first command's worker waits 15 s for more work; the user fixes a setting meanwhile.
    const fixed = await cli.run(['analyze', videoUrl, '--prompt', 'Second?', '--watch'], { env: { ...chatEnv(), TUBEKIT_ANALYSIS_MODEL: 'fixed-model' } });
    expect(fixed.stdout).toBe('Answered for fixed-model.\n');
    expect(fixture.chats.map((chat) => chat.model)).toEqual(['cli-model', 'fixed-model']);
    // Two workers, one per set of settings; the jobs keep only a digest of them, never the key.
    const log = fs.readFileSync(workerLogFile(cli.dataDir), 'utf8');
    expect(new Set([...log.matchAll(/\[worker (\d+)\] started/g)].map((match) => match[1])).size).toBe(2);
    for (const file of fs.readdirSync(cli.dataDir).filter((name) => name.startsWith('tubekit.db'))) {
      expect(fs.readFileSync(path.join(cli.dataDir, file)).includes(KEY), file).toBe(false);
    }
  }, 120_000);

  it('uses the profile\'s settings (and key) when the environment has none, in the worker of that --profile', async () => {
    const { cli, videoUrl } = await sandboxWithVideo();
    for (const [key, value] of [['analysis.provider', 'openai-compatible'], ['analysis.base_url', fixture.chatBaseUrl], ['analysis.model', 'profile-model']]) {
      expect((await cli.run(['--profile', 'vision', 'config', 'set', key!, value!])).exitCode).toBe(0);
    }
    expect((await cli.run(['--profile', 'vision', 'config', 'set', 'analysis.api_key'], { input: KEY })).exitCode).toBe(0);
    const watched = await cli.run(['--profile', 'vision', 'analyze', videoUrl, '--prompt', 'Summarize it.', '--watch', '--json']);
    expect(watched.exitCode).toBe(0);
    expect(JSON.parse(watched.stdout)).toMatchObject({ status: 'completed', analysis_text: expect.stringMatching(/^Model saw \d+ frames/) });
    expect(fixture.chats[0]).toMatchObject({ model: 'profile-model', authorization: `Bearer ${KEY}` });

    // The default profile has no model: the sample world's stand-in answers there.
    stopDetachedWorkers(cli.dataDir);
    const plain = await cli.run(['analyze', videoUrl, '--prompt', 'Summarize it.', '--watch']);
    expect(plain.stdout).toMatch(/^\[Sample world\]/);
    expect(fixture.chats).toHaveLength(1);
  }, 120_000);

  it('serve analyses with its own configuration, never the caller\'s', async () => {
    const { cli, videoUrl } = await sandboxWithVideo();
    const serve = cli.spawn(['serve', '--port', '0'], { env: chatEnv() });
    try {
      const url = await printedUrl(serve);
      const key = (await cli.run(['engine', 'keys', 'create', '--plan', 'starter'])).stdout.trim();
      // The caller's own settings point elsewhere; they never travel with the request.
      const callerEnv = { TUBEKIT_BASE_URL: url, TUBEKIT_API_KEY: key, TUBEKIT_ANALYSIS_PROVIDER: 'gemini', TUBEKIT_ANALYSIS_BASE_URL: 'http://127.0.0.1:9', TUBEKIT_ANALYSIS_API_KEY: 'caller-key-must-stay-home' };
      const watched = await cli.run(['analyze', videoUrl, '--prompt', 'Summarize it.', '--watch'], { env: callerEnv });
      expect(watched.exitCode).toBe(0);
      expect(watched.stdout).toMatch(/^Model saw \d+ frames\. Prompt seen: yes\.\n$/);
      expect(fixture.chats[0]).toMatchObject({ model: 'cli-model', authorization: `Bearer ${KEY}` });
      expect(JSON.stringify(fixture.raw)).not.toContain('caller-key-must-stay-home');
    } finally {
      serve.kill('SIGTERM');
      await serve;
    }
  }, 120_000);
});
