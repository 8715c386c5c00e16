/**
 * Scratch folders for work in progress (a render's pieces and output) under
 * `<data-dir>/scratch`, one per piece of work, named `<kind>-<pid>-<random>` after the process
 * that owns it. The owner removes its folder when done; one killed before it could is swept by the
 * next sweep (at `serve` start and before every render): an entry goes once its owner no longer
 * runs, or once it is older than any work takes (its pid may have been reused). A folder of a
 * process that still runs is left alone, so concurrent renders and servers are safe.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { scratchDir } from './paths.js';
import { processAlive } from './process-alive.js';

/** Longer than any render takes; an entry older than this is swept whoever owns it. */
export const SCRATCH_MAX_AGE_MS = 6 * 3_600_000;

const OWNED_ENTRY = /^[a-z]+-(\d+)-[0-9a-f]+$/;

/** This process's folders in use: one of its pid but not among them is a dead namesake's (a restarted container reuses pids). */
const inUse = new Set<string>();

/** Runs `work` in a fresh scratch folder, removed afterwards whatever happens. */
export async function withScratchDir<T>(dataDir: string, kind: string, work: (dir: string) => Promise<T>): Promise<T> {
  await sweepScratch(dataDir);
  const root = scratchDir(dataDir);
  await fs.promises.mkdir(root, { recursive: true, mode: 0o700 });
  const dir = path.join(root, `${kind}-${process.pid}-${randomBytes(6).toString('hex')}`);
  // Claimed before it exists: another render's sweep may run while this folder is being made.
  inUse.add(dir);
  try {
    await fs.promises.mkdir(dir, { mode: 0o700 });
    return await work(dir);
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
    inUse.delete(dir);
  }
}

/** Removes scratch entries left by processes that are gone (or older than any work); returns their names. */
export async function sweepScratch(dataDir: string, now = Date.now()): Promise<string[]> {
  const root = scratchDir(dataDir);
  let names: string[];
  try {
    names = await fs.promises.readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const swept: string[] = [];
  for (const name of names) {
    const entry = path.join(root, name);
    if (await isAbandoned(name, entry, now)) {
      await fs.promises.rm(entry, { recursive: true, force: true });
      swept.push(name);
    }
  }
  return swept;
}

async function isAbandoned(name: string, entry: string, now: number): Promise<boolean> {
  const owner = OWNED_ENTRY.exec(name);
  if (owner) {
    const pid = Number(owner[1]);
    if (pid === process.pid ? !inUse.has(entry) : !processAlive(pid)) return true;
  }
  const stat = await fs.promises.lstat(entry).catch(() => null);
  return stat !== null && now - stat.mtimeMs > SCRATCH_MAX_AGE_MS;
}
