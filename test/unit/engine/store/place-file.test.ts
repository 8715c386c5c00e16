/**
 * Placing a finished file (a render made in the data dir's scratch folder) into the files dir,
 * whole or not at all: a rename on one filesystem, a copy beside the target and a rename when the
 * files dir is another mount (a fleet's shared directory). Readers never see part of a file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { placeFileAtomic, placeFolderAtomic } from '../../../../src/engine/store/atomic-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(under = os.tmpdir()): string {
  const dir = fs.mkdtempSync(path.join(under, 'tubekit-place-'));
  dirs.push(dir);
  return dir;
}

const made = (dir: string, name: string, bytes: Buffer) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
};

/** A directory on another filesystem than the temp dir, when this machine has one (/dev/shm). */
const otherMount = fs.existsSync('/dev/shm') && fs.statSync('/dev/shm').dev !== fs.statSync(os.tmpdir()).dev ? '/dev/shm' : undefined;

describe('placing a finished file', () => {
  it('renames it into place on one filesystem, making the directories', async () => {
    const scratch = tempDir();
    const target = path.join(tempDir(), 'cdn', 'v', 'file.mp3');
    const bytes = Buffer.alloc(100_000, 7);
    await placeFileAtomic(made(scratch, 'output', bytes), target);
    expect(fs.readFileSync(target).equals(bytes)).toBe(true);
    expect(fs.readdirSync(scratch)).toEqual([]);
  });

  it.runIf(otherMount !== undefined)('copies it beside the target and renames it there when the files dir is another mount', async () => {
    const scratch = tempDir(otherMount);
    const filesDir = tempDir();
    const target = path.join(filesDir, 'cdn', 'file.mp4');
    const bytes = Buffer.alloc(3_000_000, 3);
    await placeFileAtomic(made(scratch, 'output', bytes), target);
    expect(fs.readFileSync(target).equals(bytes)).toBe(true);
    // Nothing left behind: neither the scratch file nor a temporary name beside the target.
    expect(fs.readdirSync(scratch)).toEqual([]);
    expect(fs.readdirSync(path.dirname(target))).toEqual(['file.mp4']);
  });

  it.runIf(otherMount !== undefined)('leaves the target whole when two machines place the same file at once', async () => {
    const filesDir = tempDir();
    const target = path.join(filesDir, 'cdn', 'same.mp4');
    const [first, second] = [Buffer.alloc(2_000_000, 1), Buffer.alloc(2_000_000, 2)];
    await Promise.all([placeFileAtomic(made(tempDir(otherMount), 'a', first), target), placeFileAtomic(made(tempDir(otherMount), 'b', second), target)]);
    const placed = fs.readFileSync(target);
    expect(placed.equals(first) || placed.equals(second)).toBe(true);
    expect(fs.readdirSync(path.dirname(target))).toEqual(['same.mp4']);
  });
});

describe('placing a finished folder (the frames of a video)', () => {
  const folderOf = (dir: string, files: Record<string, Buffer>) => {
    for (const [name, bytes] of Object.entries(files)) made(dir, name, bytes);
    return dir;
  };
  const files = { 'frame-001.jpg': Buffer.alloc(50_000, 1), 'frame-002.jpg': Buffer.alloc(60_000, 2) };

  it('renames it into place on one filesystem, making the directories', async () => {
    const scratch = tempDir();
    const made = path.join(scratch, 'frames');
    fs.mkdirSync(made);
    folderOf(made, files);
    const target = path.join(tempDir(), 'analysis-frames', '7', 'vid-low-1234');
    await placeFolderAtomic(made, target, Object.keys(files));
    expect(fs.readdirSync(target).sort()).toEqual(Object.keys(files));
    expect(fs.readdirSync(scratch)).toEqual([]);
  });

  it.runIf(otherMount !== undefined)('copies its files into a folder beside the target and renames that when the files dir is another mount', async () => {
    const made = folderOf(tempDir(otherMount), files);
    const parent = path.join(tempDir(), 'analysis-frames', '7');
    const target = path.join(parent, 'vid-low-1234');
    await placeFolderAtomic(made, target, Object.keys(files));
    for (const [name, bytes] of Object.entries(files)) expect(fs.readFileSync(path.join(target, name)).equals(bytes)).toBe(true);
    expect(fs.existsSync(made)).toBe(false);
    expect(fs.readdirSync(parent)).toEqual(['vid-low-1234']);
  });

  it.runIf(otherMount !== undefined)('leaves no folder, whole or temporary, when a copy fails half-way', async () => {
    const made = folderOf(tempDir(otherMount), files);
    const parent = path.join(tempDir(), 'analysis-frames', '7');
    const target = path.join(parent, 'vid-low-1234');
    // The second file named is not there: the first is copied, then the copy fails.
    await expect(placeFolderAtomic(made, target, [...Object.keys(files), 'frame-003.jpg'])).rejects.toThrow(/ENOENT/);
    expect(fs.readdirSync(parent)).toEqual([]);
    expect(fs.readdirSync(made).sort()).toEqual(Object.keys(files));
  });
});
