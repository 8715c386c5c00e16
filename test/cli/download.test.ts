/**
 * `tubekit download` end to end with the built binary: where files go and under which name,
 * overwriting only with --force, stdout, exit codes before and after the call, a transfer that
 * breaks (resumed) or is killed (nothing under the final name; its part removed by the next run),
 * and progress on a terminal only.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';
import { hasScript, runOnTerminal } from '../support/terminal.js';

// Videos of the default sample world (seed 1, 3,000 channels), as `engine sample videos` lists them.
const HUMAN = 'https://www.youtube.com/watch?v=GHGuclERoWA';
const SHORT = 'https://www.youtube.com/shorts/DgaCE_roV-w';
const SUBTITLES_NAME = 'Free Kicks 3 consejos que nadie te cuenta.en.srt';

let sandbox: CliSandbox;
let work: string;
beforeAll(() => {
  sandbox = cliSandbox();
});
afterAll(() => sandbox.cleanup());
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));
const newWorkDir = () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-dl-'));
  return work;
};

describe('tubekit download (embedded engine)', () => {
  it('saves into the current directory under the served name, and overwrites only with --force', async () => {
    const dir = newWorkDir();
    const first = await sandbox.run(['download', HUMAN, '--format', 'subtitles'], { cwd: dir });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toBe(`${SUBTITLES_NAME}\n`);
    expect(first.stderr).toMatch(/Saved .*\.en\.srt: [\d.]+ kB, the whole transcript/);
    const file = path.join(dir, SUBTITLES_NAME);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^1\n00:00:\d\d,\d{3} --> /);

    fs.writeFileSync(file, 'mine');
    const again = await sandbox.run(['download', HUMAN, '--format', 'subtitles'], { cwd: dir });
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/already exists; tubekit does not write over a file without --force/);
    expect(again.stderr).toMatch(/--force/);
    expect(fs.readFileSync(file, 'utf8')).toBe('mine');
    expect(fs.readdirSync(dir)).toEqual([SUBTITLES_NAME]);

    const forced = await sandbox.run(['download', HUMAN, '--format', 'subtitles', '--force'], { cwd: dir });
    expect(forced.exitCode).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^1\n/);
  });

  it('saves into a directory, to a file, or to stdout with -o', async () => {
    const dir = newWorkDir();
    fs.mkdirSync(path.join(dir, 'clips'));
    const intoDir = await sandbox.run(['download', SHORT, '--quality', '360p', '-o', 'clips'], { cwd: dir });
    expect(intoDir.exitCode, intoDir.stderr).toBe(0);
    expect(fs.readdirSync(path.join(dir, 'clips'))).toEqual(['Golden Hour live 🎤 #shorts (360p).mp4']);

    const toFile = await sandbox.run(['download', HUMAN, '--format', 'audio', '--start', '1:30', '--end', '1:33', '-o', 'talk.mp3'], { cwd: dir });
    expect(toFile.exitCode, toFile.stderr).toBe(0);
    expect(toFile.stdout).toBe('talk.mp3\n');
    const saved = fs.readFileSync(path.join(dir, 'talk.mp3'));
    expect(saved.subarray(0, 3).toString('latin1')).toBe('ID3');

    const toStdout = await sandbox.run(['download', HUMAN, '--format', 'audio', '--start', '90', '--end', '93', '-o', '-']);
    expect(toStdout.exitCode).toBe(0);
    expect(Buffer.from(toStdout.stdout, 'latin1').length).toBeGreaterThan(0);
    const bytes = await sandbox.run(['download', HUMAN, '--format', 'subtitles', '-o', '-']);
    expect(bytes.stdout).toMatch(/^1\n00:00:/);

    expect(fs.readdirSync(dir).sort()).toEqual(['clips', 'talk.mp3']);
  });

  it('refuses what cannot work before any call, with exit 2 (no data dir is even made)', async () => {
    const fresh = cliSandbox();
    const taken = path.join(newWorkDir(), 'taken.mp4');
    fs.writeFileSync(taken, 'mine');
    try {
      const cases: Array<[string[], RegExp]> = [
        [['download', HUMAN, '-o', taken], /taken\.mp4 already exists; tubekit does not write over a file without --force/],
        [['download', 'https://vimeo.com/12345'], /links of vimeo\.com are not supported/],
        [['download', 'not a link'], /is not a link/],
        [['download', HUMAN, '--start', 'soon'], /--start must be a time like 1:30/],
        [['download', HUMAN, '--end', '-5'], /--end must not be negative/],
        [['download', HUMAN, '--start', '2:00', '--end', '1:00'], /--start \(2:00\) must be before --end \(1:00\)/],
        [['download', HUMAN, '--quality', '4k'], /--quality must be one of 360p, 480p, 720p, 1080p/],
        [['download', HUMAN, '--format', 'gif'], /Allowed choices are video, audio, subtitles/],
        [['--json', 'download', HUMAN, '-o', '-'], /-o - writes the file to stdout, where --json/],
        [['download', HUMAN, '-o', 'missing/'], /no such directory/],
        [['download', HUMAN, '--url-only', '-o', 'x.mp4'], /--url-only fetches nothing/],
      ];
      for (const [args, message] of cases) {
        const result = await fresh.run(args);
        expect(result.exitCode, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toMatch(message);
        expect(result.stdout).toBe('');
      }
      expect(fs.existsSync(fresh.dataDir)).toBe(false);
    } finally {
      fresh.cleanup();
    }
  });

  it('prints the URL with --url-only and the API body with --json, fetching nothing', async () => {
    const dir = newWorkDir();
    const url = await sandbox.run(['download', HUMAN, '--format', 'subtitles', '--url-only'], { cwd: dir });
    expect(url.stdout).toMatch(/^file:\/\/.*\/cdn\/downloads\/GHGuclERoWA\/subtitles\/.*\.en\.srt\n$/);
    const body = await sandbox.run(['--json', 'download', HUMAN, '--format', 'subtitles', '--url-only'], { cwd: dir });
    expect(JSON.parse(body.stdout)).toMatchObject({ success: true, video_id: 'GHGuclERoWA', format: 'subtitles', cached: true });
    const saved = await sandbox.run(['--json', 'download', HUMAN, '--format', 'subtitles'], { cwd: dir });
    expect(JSON.parse(saved.stdout)).toMatchObject({ success: true, cached: true });
    expect(fs.readdirSync(dir)).toEqual([SUBTITLES_NAME]);
  });

  it('exits 8 on a cap with when to try again and the settings link, and 4 for a key without the scope', async () => {
    const starter = (await sandbox.run(['engine', 'keys', 'create', '--plan', 'starter', '--scope', 'generations'])).stdout.trim();
    for (let index = 0; index < 5; index += 1) {
      expect((await sandbox.run(['download', HUMAN, '--format', 'subtitles', '--url-only'], { env: { TUBEKIT_API_KEY: starter } })).exitCode).toBe(0);
    }
    const capped = await sandbox.run(['download', HUMAN, '--format', 'subtitles', '--url-only'], { env: { TUBEKIT_API_KEY: starter } });
    expect(capped.exitCode).toBe(8);
    expect(capped.stderr).toMatch(/5 downloads an hour.*Try again in \d+s\./);
    expect(capped.stderr).toMatch(/subscription settings: file:\/\/\S+settings\/subscription\.html/);

    const unscoped = (await sandbox.run(['engine', 'keys', 'create', '--plan', 'ultimate'])).stdout.trim();
    const refused = await sandbox.run(['--json', 'download', HUMAN, '--format', 'subtitles'], { env: { TUBEKIT_API_KEY: unscoped } });
    expect(refused.exitCode).toBe(4);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ status: 401, code: 'scope_required', hint: expect.stringMatching(/--scope generations/) });
  });

  it('exits 9 naming how to install ffmpeg when it is missing, and still saves subtitles', async () => {
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-nodeonly-'));
    fs.symlinkSync(process.execPath, path.join(bin, 'node'));
    try {
      const env = { PATH: bin, FFMPEG_PATH: '' };
      // A process of its own: what it finds on PATH is the point.
      const video = await sandbox.run(['download', HUMAN, '--start', '0', '--end', '2', '--url-only'], { env, spawn: true });
      expect(video.exitCode).toBe(9);
      expect(video.stderr).toMatch(/need ffmpeg, which is not installed.*sudo apt-get install ffmpeg/);
      expect((await sandbox.run(['download', HUMAN, '--format', 'subtitles', '--url-only'], { env, spawn: true })).exitCode).toBe(0);
    } finally {
      fs.rmSync(bin, { recursive: true, force: true });
    }
  });

  it.skipIf(process.platform !== 'linux')('stops a render on Ctrl-C with exit 3, freeing its slot and saving nothing', async () => {
    const dir = newWorkDir();
    const child = sandbox.spawn(['download', HUMAN, '--quality', '480p', '--start', '0:20', '-o', 'long.mp4'], { cwd: dir });
    // Wait until ffmpeg runs under it: interrupting then is what once killed the CLI without cleanup.
    const children = `/proc/${child.pid}/task/${child.pid}/children`;
    const deadline = Date.now() + 20_000;
    while (!(fs.existsSync(children) && fs.readFileSync(children, 'utf8').trim())) {
      if (Date.now() > deadline) throw new Error('ffmpeg never started');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/Download cancelled; nothing was saved/);
    expect(fs.readdirSync(dir)).toEqual([]);
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(path.join(sandbox.dataDir, 'tubekit.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM download_slots').get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT COUNT(*) AS n FROM download_files WHERE state = 'rendering'").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it.skipIf(!hasScript)('shows a spinner and then a progress bar on a terminal, and nothing of that when piped', async () => {
    const dir = newWorkDir();
    const { screen, exitCode } = await runOnTerminal(sandbox, ['download', SHORT, '--quality', '480p', '--start', '0', '--end', '5', '-o', path.join(dir, 'short.mp4')]);
    expect(exitCode).toBe(0);
    expect(screen).toMatch(/Preparing the video/);
    expect(screen).toMatch(/\[#+-*\]\s+100%\s+[\d.]+ kB \/ [\d.]+ kB\s+[\d.]+ [kMG]?B\/s/);
    const piped = await sandbox.run(['download', SHORT, '--quality', '480p', '--start', '0', '--end', '5', '-o', path.join(dir, 'again.mp4')]);
    expect(piped.stderr).not.toMatch(/\r|Preparing|%/);
  });
});

/** A stand-in for the hosted service and its CDN, whose file transfers can stall or break. */
async function fakeService(file: Buffer, transfer: 'stall' | 'break-once') {
  const state = { fileRequests: [] as http.IncomingHttpHeaders[], bytesSent: 0 };
  const server = http.createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/api/download-video') {
      request.resume();
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          success: true, download_url: `${origin}/files/clip.mp4`, video_id: 'GHGuclERoWA', title: 'Clip', duration_seconds: 60,
          size_bytes: file.length, cached: false, format: 'video', quality: 720, start_seconds: null, end_seconds: null,
        }),
      );
      return;
    }
    const number = state.fileRequests.push(request.headers) - 1;
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    response.writeHead(range ? 206 : 200, {
      'content-length': file.length - start,
      ...(range ? { 'content-range': `bytes ${start}-${file.length - 1}/${file.length}` } : {}),
    });
    if (number === 0) {
      response.write(file.subarray(0, 300_000), () => {
        state.bytesSent = 300_000;
        if (transfer === 'break-once') setTimeout(() => response.destroy(), 20);
      });
      return; // 'stall': the rest never comes
    }
    response.end(file.subarray(start));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('tubekit download (remote service)', () => {
  const file = randomBytes(1_000_000);
  const remote = (url: string) => ({ env: { TUBEKIT_BASE_URL: url, TUBEKIT_API_KEY: 'tk_test_key_0123456789' } });

  it('resumes a transfer that breaks, with a Range request, and saves the whole file', async () => {
    const service = await fakeService(file, 'break-once');
    const dir = newWorkDir();
    try {
      const result = await sandbox.run(['download', HUMAN, '-o', 'clip.mp4'], { ...remote(service.url), cwd: dir });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(fs.readFileSync(path.join(dir, 'clip.mp4')).equals(file)).toBe(true);
      expect(service.state.fileRequests).toHaveLength(2);
      expect(service.state.fileRequests[1]!.range).toMatch(/^bytes=[1-9]\d*-$/);
      expect(service.state.fileRequests.every((headers) => headers.authorization === undefined)).toBe(true);
      expect(fs.readdirSync(dir)).toEqual(['clip.mp4']);
    } finally {
      await service.close();
    }
  });

  for (const signal of ['SIGKILL', 'SIGINT'] as const) {
    it(`leaves nothing under the final name when killed mid-transfer (${signal})`, async () => {
      const service = await fakeService(file, 'stall');
      const dir = newWorkDir();
      try {
        const child = sandbox.spawn(['download', HUMAN, '-o', 'clip.mp4'], { ...remote(service.url), cwd: dir });
        const deadline = Date.now() + 20_000;
        while (!(service.state.bytesSent > 0 && fs.readdirSync(dir).some((name) => name.endsWith('.part')))) {
          if (Date.now() > deadline) throw new Error('the transfer never started');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        child.kill(signal);
        const result = await child;
        expect(fs.existsSync(path.join(dir, 'clip.mp4'))).toBe(false);
        if (signal === 'SIGINT') {
          expect(result.exitCode).toBe(3);
          expect(result.stderr).toMatch(/Download cancelled; nothing was saved/);
          expect(fs.readdirSync(dir)).toEqual([]);
        } else {
          // A killed run cannot clean up: its part stays until the next save into the folder.
          expect(fs.readdirSync(dir)).toEqual([`.clip.mp4.${child.pid}.part`]);
          const next = await sandbox.run(['download', HUMAN, '-o', 'clip.mp4'], { ...remote(service.url), cwd: dir });
          expect(next.exitCode, next.stderr).toBe(0);
          expect(fs.readdirSync(dir)).toEqual(['clip.mp4']);
        }
      } finally {
        await service.close();
      }
    });
  }
});
