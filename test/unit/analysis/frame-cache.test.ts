/** The frames kept for a chat model's 2-hour reuse: placed whole in the files dir, a handle answers only while all its files exist; old folders are swept. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { cachedFrames, framesFolder, framesFolderPath, framesHandle, framesRoot, keepFrames, removeFramesFolder, sweepFrameFolders } from '../../../src/engine/features/analysis/frame-cache.js';
import { OutsideRootError } from '../../../src/engine/contained-path.js';
import { tempDataDir } from '../../support/engines.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = tempDataDir();
  dirs.push(dir);
  return dir;
}

/** Two frames sampled in a scratch folder, then kept in the files dir. */
async function folderWithFrames(filesDir: string, videoId: string) {
  const made = path.join(tempDir(), 'frames');
  fs.mkdirSync(made);
  const sampled = [0, 1].map((index) => {
    const file = path.join(made, `frame-00${index + 1}.jpg`);
    fs.writeFileSync(file, Buffer.from([0xff, 0xd8, index, 0xff, 0xd9]));
    return { atSeconds: index * 10 + 5, file, bytes: 5 };
  });
  const folder = framesFolder(7, videoId, 'low');
  const frames = await keepFrames(filesDir, folder, sampled);
  const handle = framesHandle('low', folder, frames) as Extract<ReturnType<typeof framesHandle>, { kind: 'frames' }>;
  return { made, folder, dir: path.join(filesDir, folder), frames, handle };
}

it('keeps the frames in the files dir under a relative name, and answers them while every file exists', async () => {
  const filesDir = tempDir();
  const { made, dir, frames, handle } = await folderWithFrames(filesDir, 'vidAAAAAAAA');
  expect(handle).toMatchObject({ kind: 'frames', resolution: 'low', frames: [{ at_seconds: 5, file: 'frame-001.jpg' }, { at_seconds: 15, file: 'frame-002.jpg' }] });
  // Relative, so a machine that mounts the files dir elsewhere finds it too.
  expect(path.isAbsolute(handle.dir)).toBe(false);
  expect(framesFolderPath(filesDir, handle.dir)).toBe(dir);
  expect(fs.existsSync(made)).toBe(false);
  expect(frames.map((frame) => path.dirname(frame.file))).toEqual([dir, dir]);
  expect(await cachedFrames(filesDir, handle)).toEqual(frames);
  // Another machine's mount of the same files.
  const elsewhere = path.join(tempDir(), 'mount');
  fs.symlinkSync(filesDir, elsewhere);
  expect((await cachedFrames(elsewhere, handle))!.map((frame) => frame.file)).toEqual(frames.map((frame) => path.join(elsewhere, handle.dir, path.basename(frame.file))));
  fs.rmSync(frames[1]!.file);
  expect(await cachedFrames(filesDir, handle)).toBeUndefined();
});

it('still reads a handle recorded with an absolute folder inside the files dir, and none outside it', async () => {
  const filesDir = tempDir();
  const { dir, frames, handle } = await folderWithFrames(filesDir, 'vidBBBBBBBB');
  expect(await cachedFrames(filesDir, { ...handle, dir })).toEqual(frames);
  expect(await cachedFrames(tempDir(), { ...handle, dir })).toBeUndefined();
});

/** A folder outside the files dir with a file that must survive everything below. */
function outsideWithFile(): { outside: string; precious: string } {
  const outside = tempDir();
  const precious = path.join(outside, 'frame-001.jpg');
  fs.writeFileSync(precious, 'not yours');
  return { outside, precious };
}

it('names a folder only with its own characters and an id of the user, whatever the video id', () => {
  const folder = framesFolder(7, '../../../../outside/x', 'low');
  expect(folder).toMatch(/^analysis-frames\/7\/outsidex-low-[0-9a-f]{8}$/);
});

it('reads no frame of a handle naming a place outside its folder (lexically or through a link)', async () => {
  const filesDir = tempDir();
  const { handle } = await folderWithFrames(filesDir, 'vidCCCCCCCC');
  const { outside } = outsideWithFile();
  for (const dir of ['../../outside', 'analysis-frames/7/../../../x', outside, 'samples/7/x', 'analysis-frames/7']) {
    expect(await cachedFrames(filesDir, { ...handle, dir }), dir).toBeUndefined();
  }
  expect(await cachedFrames(filesDir, { ...handle, frames: [{ at_seconds: 0, file: '../../../outside.jpg' }] })).toBeUndefined();
  // A frames folder that is a link to another place.
  const linked = path.join(framesRoot(filesDir), '7', 'vidLINK-low-00000000');
  fs.symlinkSync(outside, linked);
  expect(await cachedFrames(filesDir, { ...handle, dir: path.relative(filesDir, linked) })).toBeUndefined();
});

it('never writes or removes outside the files dir through a linked user folder', async () => {
  const filesDir = tempDir();
  const { outside, precious } = outsideWithFile();
  fs.mkdirSync(framesRoot(filesDir), { recursive: true });
  fs.symlinkSync(outside, path.join(framesRoot(filesDir), '9'));
  const made = path.join(tempDir(), 'frames');
  fs.mkdirSync(made);
  fs.writeFileSync(path.join(made, 'frame-001.jpg'), 'jpeg');
  const folder = framesFolder(9, 'vidDDDDDDDD', 'low');
  await expect(keepFrames(filesDir, folder, [{ atSeconds: 0, file: path.join(made, 'frame-001.jpg'), bytes: 4 }])).rejects.toBeInstanceOf(OutsideRootError);
  expect(fs.readdirSync(outside)).toEqual(['frame-001.jpg']);
  // The sweep and a removal do not follow it either, however old what is behind it.
  fs.mkdirSync(path.join(outside, 'old-low-00000000'));
  const longAgo = new Date(Date.now() - 24 * 3600 * 1000);
  fs.utimesSync(path.join(outside, 'old-low-00000000'), longAgo, longAgo);
  await sweepFrameFolders(filesDir);
  expect(fs.existsSync(path.join(outside, 'old-low-00000000'))).toBe(true);
  await expect(removeFramesFolder(filesDir, 'analysis-frames/9/old-low-00000000')).rejects.toBeInstanceOf(OutsideRootError);
  await expect(removeFramesFolder(filesDir, '../outside')).rejects.toBeInstanceOf(OutsideRootError);
  expect(fs.readFileSync(precious, 'utf8')).toBe('not yours');
});

it('sweeps folders older than the reuse window (and a half hour), keeping younger ones', async () => {
  const filesDir = tempDir();
  const old = await folderWithFrames(filesDir, 'vidOLDOLDOLD');
  const young = await folderWithFrames(filesDir, 'vidNEWNEWNEW');
  const now = Date.now();
  const longAgo = new Date(now - (2 * 3600 + 31 * 60) * 1000);
  fs.utimesSync(old.dir, longAgo, longAgo);
  await sweepFrameFolders(filesDir, now);
  expect(fs.existsSync(old.dir)).toBe(false);
  expect(fs.existsSync(young.dir)).toBe(true);
  expect(fs.readdirSync(path.join(framesRoot(filesDir), '7'))).toEqual([path.basename(young.dir)]);
  // Nothing to sweep in a files dir that never had frames.
  await expect(sweepFrameFolders(tempDir())).resolves.toBeUndefined();
});

