/** The frames kept for a chat model's 2-hour reuse: a handle answers only while all its files exist; old folders are swept. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { cachedFrames, framesHandle, framesRoot, newFramesFolder, sweepFrameFolders } from '../../../src/engine/features/analysis/frame-cache.js';
import { tempDataDir } from '../../support/engines.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function folderWithFrames(dataDir: string, videoId: string) {
  const dir = await newFramesFolder(dataDir, 7, videoId, 'low');
  const frames = [0, 1].map((index) => {
    const file = path.join(dir, `frame-00${index + 1}.jpg`);
    fs.writeFileSync(file, Buffer.from([0xff, 0xd8, index, 0xff, 0xd9]));
    return { atSeconds: index * 10 + 5, file, bytes: 5 };
  });
  return { dir, frames, handle: framesHandle('low', dir, frames) };
}

it('answers a handle\'s frames while every file exists, and nothing once one is gone', async () => {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const { frames, handle } = await folderWithFrames(dataDir, 'vidAAAAAAAA');
  expect(handle).toMatchObject({ kind: 'frames', resolution: 'low', frames: [{ at_seconds: 5, file: 'frame-001.jpg' }, { at_seconds: 15, file: 'frame-002.jpg' }] });
  expect(await cachedFrames(handle as never)).toEqual(frames);
  fs.rmSync(frames[1]!.file);
  expect(await cachedFrames(handle as never)).toBeUndefined();
});

it('sweeps folders older than the reuse window (and a half hour), keeping younger ones', async () => {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const old = await folderWithFrames(dataDir, 'vidOLDOLDOLD');
  const young = await folderWithFrames(dataDir, 'vidNEWNEWNEW');
  const now = Date.now();
  const longAgo = new Date(now - (2 * 3600 + 31 * 60) * 1000);
  fs.utimesSync(old.dir, longAgo, longAgo);
  await sweepFrameFolders(dataDir, now);
  expect(fs.existsSync(old.dir)).toBe(false);
  expect(fs.existsSync(young.dir)).toBe(true);
  expect(fs.readdirSync(path.join(framesRoot(dataDir), '7'))).toEqual([path.basename(young.dir)]);
  // Nothing to sweep in a data dir that never had frames.
  const empty = tempDataDir();
  dirs.push(empty);
  await expect(sweepFrameFolders(empty)).resolves.toBeUndefined();
});
