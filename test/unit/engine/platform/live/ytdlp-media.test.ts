/**
 * The live media source's parts: yt-dlp versions compared by date, its errors classified, the
 * streams chosen from the metadata, and the options every run gets (hermetic; the proxy, a copy of
 * the cookies file, and this Node as JS runtime only where the version supports it) — seen by a
 * wrapper standing in for yt-dlp that records what it was given, then runs the real one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Engine } from '../../../../../src/engine/engine.js';
import { chooseFormats } from '../../../../../src/engine/platform/live/media/format-choice.js';
import type { YtdlpFormat, YtdlpInfo } from '../../../../../src/engine/platform/live/media/ytdlp-info.js';
import { ytdlpFailure, ytdlpReason } from '../../../../../src/engine/platform/live/media/ytdlp-failures.js';
import { compareVersions, versionAgeDays } from '../../../../../src/engine/platform/live/media/ytdlp-tool.js';
import { LocalService } from '../../../../../src/engine/local-service.js';
import { tempDataDir } from '../../../../support/engines.js';
import { hasYtdlp, liveWatchUrl } from '../../../../support/live-media.js';
import { type MediaFixtureServer, startMediaFixtureServer } from '../../../../support/media-fixture-server.js';

// yt-dlp, ffmpeg and the fixture media they fetch (made on first use) take seconds each, more on a busy machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

describe('yt-dlp versions', () => {
  it('compares dated versions by their date, nightlies included, and an undated one as oldest', () => {
    expect(compareVersions('2023.03.04', '2023.03.04')).toBe(0);
    expect(compareVersions('2025.11.12.232455', '2025.11.12')).toBe(0);
    expect(compareVersions('2023.3.4', '2025.11.12')).toBeLessThan(0);
    expect(compareVersions('2026.01.02', '2025.11.12')).toBeGreaterThan(0);
    expect(compareVersions('unknown', '2021.01.01')).toBeLessThan(0);
    expect(versionAgeDays({ released: new Date(Date.UTC(2023, 2, 4)) }, Date.UTC(2023, 2, 14))).toBe(10);
  });
});

describe("yt-dlp's errors", () => {
  it('keeps the reason without the extractor and id prefix', () => {
    expect(ytdlpReason('[youtube] abc: Downloading webpage\nERROR: [youtube] dQw4w9WgXcQ: Private video. Sign in if granted access')).toBe('Private video. Sign in if granted access');
  });
  it('tells unavailable videos (400) from refusals (503), the network (503) and the rest (502)', () => {
    const kind = (text: string) => {
      const error = ytdlpFailure('dQw4w9WgXcQ', text);
      return `${error.status} ${error.code}`;
    };
    expect(kind('ERROR: [youtube] dQw4w9WgXcQ: Premieres in 2 hours')).toBe('400 video_unavailable');
    expect(kind('ERROR: [youtube] dQw4w9WgXcQ: This video is available to this channel\'s members on level: Fans')).toBe('400 video_unavailable');
    expect(kind('ERROR: [youtube] dQw4w9WgXcQ: Video unavailable. The uploader has not made this video available in your country')).toBe('400 video_unavailable');
    expect(kind("ERROR: [youtube] dQw4w9WgXcQ: Sign in to confirm you’re not a bot")).toBe('503 platform_refused');
    expect(kind('ERROR: unable to download video data: HTTP Error 429: Too Many Requests')).toBe('503 platform_refused');
    expect(kind('ERROR: [youtube] dQw4w9WgXcQ: Unable to download API page: <urlopen error [Errno -3] Temporary failure in name resolution>')).toBe('503 platform_unreachable');
    expect(kind('ERROR: [youtube] dQw4w9WgXcQ: Requested format is not available')).toBe('502 upstream_error');
    expect(ytdlpFailure('dQw4w9WgXcQ', 'ERROR: Requested format is not available').hint).toMatch(/yt-dlp\/releases/);
  });
});

describe('stream choice', () => {
  const format = (id: string, fields: Partial<YtdlpFormat>): YtdlpFormat => ({ format_id: id, url: `http://x/${id}`, protocol: 'https', vcodec: 'none', acodec: 'none', ...fields });
  const info = (formats: YtdlpFormat[]): YtdlpInfo => ({ id: 'dQw4w9WgXcQ', title: 'T', duration: 100, formats });
  const whole = { start: 0, duration: 100 };
  const AAC = format('140', { acodec: 'mp4a.40.2', abr: 128, filesize: 1_600_000 });
  const OPUS = format('251', { acodec: 'opus', abr: 160, filesize: 2_000_000, language_preference: 10 });

  it('takes the best H.264 at most as high as asked with AAC, before any other codec', () => {
    const choice = chooseFormats(info([format('137', { vcodec: 'avc1.640028', height: 1080, filesize: 50_000_000 }), format('136', { vcodec: 'avc1.4d401f', height: 720, filesize: 20_000_000 }), format('247', { vcodec: 'vp9', height: 720, filesize: 15_000_000 }), AAC, OPUS, format('sb0', { protocol: 'mhtml', ext: 'mhtml', vcodec: 'none' })]), { format: 'video', height: 720, section: whole });
    expect(choice).toMatchObject({ height: 720, reencode: false, estimated_bytes: 21_600_000, source: { formatSelector: '136+140', scaleTo: null } });
    // A section weighs its share of the streams.
    expect(chooseFormats(info([format('136', { vcodec: 'avc1', height: 720, tbr: 2000 }), AAC]), { format: 'video', height: 720, section: { start: 10, duration: 25 } }).estimated_bytes).toBe(Math.ceil((2000 * 1000 * 100) / 8 / 4 + 1_600_000 / 4));
  });

  it('re-encodes another codec only when no H.264 fits, and scales down when nothing is that low', () => {
    expect(chooseFormats(info([format('247', { vcodec: 'vp9', height: 720, filesize: 1 }), OPUS]), { format: 'video', height: 1080, section: whole })).toMatchObject({ height: 720, reencode: true, source: { formatSelector: '247+251' } });
    expect(chooseFormats(info([format('137', { vcodec: 'avc1', height: 1080, filesize: 1 }), AAC]), { format: 'video', height: 360, section: whole })).toMatchObject({ height: 360, reencode: true, source: { formatSelector: '137+140', scaleTo: 360 } });
  });

  it('picks audio by the original language first, and English captions human-authored first', () => {
    expect(chooseFormats(info([AAC, OPUS]), { format: 'audio', height: null, section: whole })).toMatchObject({ source: { formatSelector: '251' }, estimated_bytes: 1_600_000 });
    const captions = (subtitles: Record<string, unknown>, automatic: Record<string, unknown>) =>
      chooseFormats({ ...info([]), subtitles: subtitles as never, automatic_captions: automatic as never }, { format: 'subtitles', height: null, section: whole });
    const track = [{ ext: 'vtt', url: 'http://x/c' }];
    expect(captions({ 'en-GB': track, de: track }, { en: track })).toMatchObject({ captions: 'human', source: { captions: { language: 'en-GB', auto: false } } });
    expect(captions({ de: track }, { 'en-orig': track, en: track })).toMatchObject({ captions: 'auto', source: { captions: { language: 'en', auto: true } } });
    expect(() => captions({ de: track }, {})).toThrow(expect.objectContaining({ status: 400, code: 'subtitles_unavailable' }));
  });
});

describe.skipIf(!hasYtdlp)('the options every yt-dlp run gets', () => {
  let server: MediaFixtureServer;
  let dir: string;
  beforeAll(async () => {
    server = await startMediaFixtureServer({ stock: ['h264-360', 'aac'] });
    server.add({ id: 'argsVideo01', formats: ['h264-360', 'aac'] });
    server.add({ id: 'argsVideo02', formats: ['h264-360', 'aac'] });
  });
  afterAll(() => server?.close());
  afterEach(() => {
    vi.unstubAllEnvs();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A yt-dlp that reports `version`, records its arguments, and runs the real one without the options it records only. */
  function wrapper(version: string): { command: string; calls: () => string[][] } {
    dir = tempDataDir('tubekit-ytdlp-wrapper-');
    const log = path.join(dir, 'calls.jsonl');
    const command = path.join(dir, 'yt-dlp');
    fs.writeFileSync(
      command,
      `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
if (args[0] === '--version') { console.log(${JSON.stringify(version)}); process.exit(0); }
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(args) + '\\n');
const real = [];
for (let i = 0; i < args.length; i++) { if (args[i] === '--proxy' || args[i] === '--js-runtimes') i++; else real.push(args[i]); }
const run = require('node:child_process').spawnSync('yt-dlp', real, { stdio: 'inherit' });
process.exit(run.status ?? 1);
`,
      { mode: 0o755 },
    );
    return { command, calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]) : []) };
  }

  async function download(command: string, videoId: string) {
    const dataDir = path.join(dir, 'data');
    vi.stubEnv('TUBEKIT_PLATFORM_ORIGIN', server.origin);
    vi.stubEnv('TUBEKIT_YTDLP', command);
    const engine = Engine.open({ dataDir, jobRunner: { mode: 'none' } });
    engine.settings.set('platform', 'live');
    const service = new LocalService(engine, engine.defaultKey());
    try {
      return await service.call('download', { video_url: liveWatchUrl(videoId), quality: '360p' });
    } finally {
      await service.close();
      engine.close();
    }
  }

  it('runs hermetically through the proxy with a copy of the cookies file, and no JS runtime for a yt-dlp that has none', async () => {
    const fake = wrapper('2023.03.04');
    const cookies = path.join(dir, 'cookies.txt');
    const text = '# Netscape HTTP Cookie File\n.youtube.com\tTRUE\t/\tTRUE\t0\tSID\tsecret\n';
    fs.writeFileSync(cookies, text);
    vi.stubEnv('TUBEKIT_PROXY', 'http://127.0.0.1:9/');
    vi.stubEnv('TUBEKIT_COOKIES', cookies);
    expect((await download(fake.command, 'argsVideo01')).success).toBe(true);
    const [call] = fake.calls();
    expect(call!.slice(0, 2)).toEqual(['--ignore-config', '--no-cache-dir']);
    expect(call![call!.indexOf('--proxy') + 1]).toBe('http://127.0.0.1:9/');
    const copy = call![call!.indexOf('--cookies') + 1]!;
    expect(copy).not.toBe(cookies);
    expect(copy.startsWith(path.join(dir, 'data', 'scratch'))).toBe(true);
    expect(call).toContain('--load-info-json');
    expect(call).not.toContain('--js-runtimes');
    expect(fs.readFileSync(cookies, 'utf8')).toBe(text);
  });

  it('gives a yt-dlp that solves challenges with a JS runtime this Node', async () => {
    const fake = wrapper('2025.11.12');
    expect((await download(fake.command, 'argsVideo02')).success).toBe(true);
    const [call] = fake.calls();
    expect(call![call!.indexOf('--js-runtimes') + 1]).toBe(`node:${process.execPath}`);
  });
});

describe("an origin's missing info.json", () => {
  it('is the origin answering HTTP 404, not a yt-dlp failure', async () => {
    const { readYtdlpInfo } = await import('../../../../../src/engine/platform/live/media/ytdlp-info.js');
    const { startFixtureServer } = await import('../../../../support/platform-fixture-server.js');
    const origin = await startFixtureServer([{ method: 'GET', path: '/ytdlp/noInfoHere1.info.json', key: {}, status: 404, body: 'Not Found' }]);
    try {
      const failure = await readYtdlpInfo('noInfoHere1', { tool: { command: 'yt-dlp', args: [] } as never, args: [], origin: origin.origin }).catch((error: unknown) => error as { status: number; message: string; hint: string });
      expect(failure).toMatchObject({ status: 502, code: 'upstream_error' });
      expect(failure.message).toBe('The platform origin has no metadata of noInfoHere1: GET /ytdlp/noInfoHere1.info.json answered HTTP 404.');
      expect(failure.message).not.toMatch(/yt-dlp could not/);
      expect(failure.hint).toContain('yt-dlp was not run');
    } finally {
      await origin.close();
    }
  });
});
