/**
 * What a SIGKILLed CLI or server leaves behind mid-render: its ffmpeg dies with it (tethered), and
 * its scratch folder under the data dir is swept by the next render or the next `serve`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliSandbox, printedUrl, type CliSandbox } from '../support/cli.js';
import { processesMentioning, waitUntil } from '../support/processes.js';

// A video of the default sample world, and a render of it that takes ffmpeg seconds.
const HUMAN = 'https://www.youtube.com/watch?v=GHGuclERoWA';
const LONG_RENDER = [HUMAN, '--quality', '1080p', '--end', '14:00'];

// Renders of seconds each, on a machine that may be busy: generous time for each test.
const TEST_MS = 120_000;

describe.skipIf(process.platform !== 'linux')('a process killed mid-render', () => {
  let sandbox: CliSandbox;
  let work: string;
  let scratch: string;
  beforeEach(() => {
    sandbox = cliSandbox();
    scratch = path.join(sandbox.dataDir, 'scratch');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-orphans-'));
  });
  afterEach(() => {
    sandbox.cleanup();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /**
   * Kills a process with `kill` once ffmpeg encodes its picture (seconds of work left), and checks
   * that ffmpeg went with it at once rather than when done.
   */
  async function killMidRender(kill: () => void): Promise<void> {
    const encoding = () => processesMentioning(scratch).filter((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('libx264'));
    await waitUntil(() => encoding().length > 0, 'ffmpeg encodes in the scratch folder', 90_000);
    kill();
    await waitUntil(() => processesMentioning(scratch).length === 0, 'no ffmpeg renders any more', 3_000);
    expect(fs.readdirSync(scratch)).toHaveLength(1);
  }

  it('takes its ffmpeg along (CLI download), and the next render sweeps its scratch folder', async () => {
    const child = sandbox.spawn(['download', ...LONG_RENDER, '-o', 'long.mp4'], { cwd: work });
    try {
      await killMidRender(() => child.kill('SIGKILL'));
    } finally {
      child.kill('SIGKILL');
    }
    expect((await child).signal).toBe('SIGKILL');

    const next = await sandbox.run(['download', HUMAN, '--format', 'subtitles', '-o', 'talk.srt'], { cwd: work });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(fs.readdirSync(scratch)).toEqual([]);
  }, TEST_MS);

  it('takes its ffmpeg along (serve), and the next serve sweeps its scratch folder at start', async () => {
    const key = (await sandbox.run(['engine', 'keys', 'create', '--scope', 'generations'])).stdout.trim();
    const first = await serve();
    const remote = sandbox.spawn(['download', ...LONG_RENDER, '-o', '-'], {
      env: { TUBEKIT_BASE_URL: first.url, TUBEKIT_API_KEY: key },
    });
    try {
      await killMidRender(() => first.child.kill('SIGKILL'));
    } finally {
      first.child.kill('SIGKILL');
      remote.kill('SIGKILL');
    }
    await remote;

    const second = await serve();
    try {
      expect(fs.readdirSync(scratch)).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      await second.child;
    }
  }, TEST_MS);

  async function serve() {
    const child = sandbox.spawn(['serve', '--port', '0']);
    return { child, url: await printedUrl(child) };
  }
});
