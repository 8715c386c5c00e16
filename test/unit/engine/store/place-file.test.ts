/**
 * Placing a finished file (a render made in the data dir's scratch folder) into the files dir,
 * whole or not at all: a rename on one filesystem, a copy beside the target and a rename when the
 * files dir is another mount (a fleet's shared directory). Readers never see part of a file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { placeFileAtomic } from '../../../../src/engine/store/atomic-file.js';

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
