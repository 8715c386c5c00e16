/**
 * Downloads never reach outside the files dir: the cache entry is named from the validated request
 * id (never the metadata's own `id`), every path is checked after resolution (links included), and
 * expiry removes only the entry's own folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { containedPath, OutsideRootError } from '../../../src/engine/contained-path.js';
import type { RequestContext } from '../../../src/engine/context.js';
import { DownloadCache } from '../../../src/engine/features/downloads/cache.js';
import { downloadFileName } from '../../../src/engine/features/downloads/file-names.js';
import { mediaPlan } from '../../../src/engine/features/downloads/media-plan.js';
import { cacheTarget } from '../../../src/engine/features/downloads/plan.js';
import type { MediaDescription, PlatformMedia } from '../../../src/engine/platform/media.js';
import { openDatabase } from '../../../src/engine/store/database.js';
import { Settings } from '../../../src/engine/store/settings.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-contain-'));
  dirs.push(dir);
  return dir;
}

function requestIn(dir: string): RequestContext {
  const settings = Settings.onSqlite(openDatabase(path.join(dir, 'tubekit.db')));
  return { engine: { settings, dataDir: dir }, limits: { maxDownloadBytes: 500_000_000, maxDownloadSeconds: 3 * 3600 } } as unknown as RequestContext;
}

const HOSTILE_ID = '../../../../outside/x';

it('names the cache entry from the asked video id, not the id in the platform metadata', async () => {
  const dir = tempDir();
  const description: MediaDescription = { video_id: HOSTILE_ID, title: '///', channel_id: '', duration_seconds: 20, source: {} };
  const media: PlatformMedia = {
    describe: async () => description,
    choose: () => ({ format: 'subtitles', height: null, estimated_bytes: 0 }) as never,
    fetch: async () => {
      throw new Error('not fetched here');
    },
  };
  const plan = await mediaPlan(requestIn(dir), { video_url: 'https://www.youtube.com/watch?v=aVideoId001', format: 'subtitles', quality: '720p' } as never, media);
  expect(plan.video.video_id).toBe('aVideoId001');
  expect(plan.target.path).toBe('downloads/aVideoId001/subtitles/aVideoId001.en.srt');
});

it('refuses a cache entry for anything but a video id', () => {
  const request = requestIn(tempDir());
  const section = { start: 0, end: 20, startSeconds: 0, endSeconds: 20 };
  expect(() => cacheTarget(request, { videoId: HOSTILE_ID, title: '', format: 'audio', height: null }, section, 20, 10)).toThrow(/invalid video id/);
});

it('names a file whose title sanitises to nothing without path characters', () => {
  const name = downloadFileName({ title: '///', videoId: '../x', format: 'audio', height: null, clip: null });
  expect(name).not.toMatch(/[/\\]/);
});

it('refuses paths that leave the root, lexically or through a link', () => {
  const root = path.join(tempDir(), 'files');
  const outside = tempDir();
  fs.mkdirSync(path.join(root, 'downloads'), { recursive: true });
  expect(() => containedPath(root, '../outside/x')).toThrow(OutsideRootError);
  expect(() => containedPath(root, '/etc/passwd')).toThrow(OutsideRootError);
  expect(containedPath(root, 'downloads/aVideoId001/audio/x.mp3')).toBe(path.join(root, 'downloads/aVideoId001/audio/x.mp3'));
  fs.symlinkSync(outside, path.join(root, 'downloads', 'linkedVid01'));
  expect(() => containedPath(root, 'downloads/linkedVid01/audio/x.mp3')).toThrow(OutsideRootError);
  fs.symlinkSync(path.join(outside, 'missing'), path.join(root, 'downloads', 'danglingV01'));
  expect(() => containedPath(root, 'downloads/danglingV01/x.mp3')).toThrow(OutsideRootError);
});

it('expires only the entry’s own folder: a row naming an outside path, or a linked folder, removes nothing outside', async () => {
  const dir = tempDir();
  const root = path.join(dir, 'cdn');
  const outside = path.join(tempDir(), 'outside');
  fs.mkdirSync(path.join(outside, 'x'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'x', 'keep.txt'), 'mine');
  fs.mkdirSync(path.join(root, 'downloads'), { recursive: true });
  fs.symlinkSync(outside, path.join(root, 'downloads', 'linkedVid01'));
  const db = openDatabase(path.join(dir, 'tubekit.db'));
  const executor = {
    get: async (sql: string, params: unknown[]) => db.prepare(sql).get(...params),
    all: async (sql: string, params: unknown[]) => db.prepare(sql).all(...params),
    run: async (sql: string, params: unknown[]) => db.prepare(sql).run(...params),
  } as never;
  const now = 1_000_000;
  const cache = new DownloadCache({ now: () => now } as never, root);
  const stale = [
    `downloads/${path.relative(path.join(root, 'downloads'), path.join(outside, 'x'))}/keep.txt`,
    `downloads/../../../${path.relative('/', outside)}/x/keep.txt`,
    'downloads/linkedVid01/x/keep.txt',
  ];
  for (const [index, relative] of stale.entries()) {
    db.prepare(`INSERT INTO download_files (cache_key, video_id, format, path, state, render_slot, expires_at) VALUES (?, 'v', 'audio', ?, 'ready', NULL, ?)`).run(`k${index}`, relative, now - 1);
  }
  for (const row of await cache.sweepable(executor)) await cache.remove(executor, row);
  expect(fs.readFileSync(path.join(outside, 'x', 'keep.txt'), 'utf8')).toBe('mine');
  expect(() => cache.file('downloads/linkedVid01/x/keep.txt')).toThrow(OutsideRootError);
  // The rows are gone (their files were never the cache's).
  expect(db.prepare('SELECT COUNT(*) AS n FROM download_files').get()).toEqual({ n: 0 });
});
