/**
 * The hidden temporary name a file is written under before it is renamed into place:
 * `.<name>.<pid>.part` beside it. A run killed midway (SIGKILL runs no cleanup) leaves its part
 * behind; the next save into that folder removes the parts of runs that no longer run. A part is
 * not resumed: the next run may fetch another rendering of another file under the same name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from '../engine/process-alive.js';

const PART_NAME = /^\..+\.(\d+)\.part$/;

/** Parts this process is writing: one of its pid but not among them is a dead namesake's (a container reuses pids). */
const writing = new Set<string>();

/** The part to write `target` under; parts dead runs left in its folder are removed first. */
export function claimPartFile(target: string): string {
  const folder = path.dirname(path.resolve(target));
  removeAbandonedParts(folder);
  const part = path.join(folder, `.${path.basename(target)}.${process.pid}.part`);
  writing.add(part);
  return part;
}

/** Removes the part (when it is still there) and forgets it. */
export function releasePartFile(part: string): void {
  fs.rmSync(part, { force: true });
  writing.delete(part);
}

function removeAbandonedParts(folder: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return; // the save itself reports a folder it cannot use
  }
  for (const name of names) {
    const pid = Number(PART_NAME.exec(name)?.[1] ?? 0);
    if (!pid) continue;
    const part = path.join(folder, name);
    if (pid === process.pid ? writing.has(part) : processAlive(pid)) continue;
    try {
      if (fs.lstatSync(part).isFile()) fs.rmSync(part, { force: true });
    } catch {
      // gone meanwhile, or not ours to remove: the save goes on
    }
  }
}
