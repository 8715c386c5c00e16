/** Scratch folders under the data dir: each piece of work has its own, and the dead's are swept. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scratchDir } from '../../../src/engine/paths.js';
import { SCRATCH_MAX_AGE_MS, sweepScratch, withScratchDir } from '../../../src/engine/scratch.js';
import { tempDataDir } from '../../support/engines.js';
import { deadPid } from '../../support/processes.js';

describe('scratch folders', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = tempDataDir();
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const leave = (name: string, ageMs = 0) => {
    const entry = path.join(scratchDir(dataDir), name);
    fs.mkdirSync(entry, { recursive: true });
    fs.writeFileSync(path.join(entry, 'sound.aac'), 'half a render');
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(entry, when, when);
    return entry;
  };

  it('works in a folder of the data dir named after this process, and removes it afterwards', async () => {
    const seen = await withScratchDir(dataDir, 'render', async (dir) => {
      expect(path.dirname(dir)).toBe(scratchDir(dataDir));
      expect(path.basename(dir)).toMatch(new RegExp(`^render-${process.pid}-[0-9a-f]+$`));
      fs.writeFileSync(path.join(dir, 'piece'), 'x');
      return dir;
    });
    expect(fs.existsSync(seen)).toBe(false);
    await expect(withScratchDir(dataDir, 'render', () => Promise.reject(new Error('ffmpeg failed')))).rejects.toThrow('ffmpeg failed');
    expect(fs.readdirSync(scratchDir(dataDir))).toEqual([]);
  });

  it('never sweeps the folder of a render of this process that is just starting', async () => {
    // Each render sweeps first: a sweep may run while another render's folder is being made.
    const renders: Promise<boolean>[] = [];
    for (let i = 0; i < 60; i++) {
      renders.push(withScratchDir(dataDir, 'render', async (dir) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return fs.existsSync(dir);
      }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(renders)).not.toContain(false);
  });

  it('sweeps what dead processes left and keeps what live ones work in', async () => {
    const dead = leave(`render-${deadPid()}-aaaaaa`);
    const parent = leave(`render-${process.ppid}-bbbbbb`);
    const stale = leave(`render-${process.ppid}-cccccc`, SCRATCH_MAX_AGE_MS + 60_000);
    const namesake = leave(`render-${process.pid}-dddddd`);
    const stranger = leave('left-by-hand', SCRATCH_MAX_AGE_MS + 60_000);
    const recentStranger = leave('recent-by-hand');
    const swept = await sweepScratch(dataDir);
    expect(swept.sort()).toEqual([dead, stale, namesake, stranger].map((entry) => path.basename(entry)).sort());
    expect(fs.readdirSync(scratchDir(dataDir)).sort()).toEqual([path.basename(parent), path.basename(recentStranger)].sort());
  });

  it('sweeps before each piece of work, leaving the folders of work in progress in this process', async () => {
    const dead = leave(`render-${deadPid()}-eeeeee`);
    await withScratchDir(dataDir, 'render', async (outer) => {
      await withScratchDir(dataDir, 'render', async (inner) => {
        expect(fs.existsSync(dead)).toBe(false);
        expect(fs.existsSync(outer)).toBe(true);
        expect(fs.readdirSync(scratchDir(dataDir)).sort()).toEqual([path.basename(outer), path.basename(inner)].sort());
      });
    });
  });

  it('has nothing to sweep in a data dir that never rendered', async () => {
    expect(await sweepScratch(dataDir)).toEqual([]);
  });
});
