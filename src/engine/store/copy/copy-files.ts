/**
 * The files a copied row names (a voice's kept sample), copied from the source's files dir to the
 * target's — a fleet's shared mount — before the row, so a row on the fleet never names a missing
 * file. Each is written beside its final name and renamed into place, so a server reading the
 * shared dir meanwhile never sees half a file; one already there with the same bytes is kept.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface FileCopy {
  /** Files written into the target's files dir. */
  copied: number;
  /** Files the target's dir already held, byte for byte: left as they are. */
  present: number;
  /** Files a row names that the source's dir does not hold: the row is copied, as broken as on the source. */
  missing: number;
}

export function copyRowFiles(names: unknown[], dirs: { from: string; to: string }, counts: FileCopy): void {
  for (const name of names) {
    if (typeof name !== 'string') continue;
    const relative = insideFilesDir(name);
    const from = path.join(dirs.from, relative);
    const to = path.join(dirs.to, relative);
    const source = fs.statSync(from, { throwIfNoEntry: false });
    if (!source?.isFile()) {
      counts.missing += 1;
      continue;
    }
    if (path.resolve(from) === path.resolve(to) || sameFile(from, to, source.size)) {
      counts.present += 1;
      continue;
    }
    fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
    const part = `${to}.copy-${process.pid}.part`;
    try {
      fs.copyFileSync(from, part);
      fs.renameSync(part, to);
    } catch (error) {
      fs.rmSync(part, { force: true });
      throw error;
    }
    counts.copied += 1;
  }
}

/** Whether `to` already holds exactly `from`'s bytes (samples are small: a size check, then the bytes). */
function sameFile(from: string, to: string, size: number): boolean {
  if (fs.statSync(to, { throwIfNoEntry: false })?.size !== size) return false;
  return fs.readFileSync(from).equals(fs.readFileSync(to));
}

/** A row's file name, refused when it would reach outside the files dir (an absolute path, `..`). */
function insideFilesDir(name: string): string {
  const normal = path.normalize(name);
  if (path.isAbsolute(normal) || normal === '..' || normal.startsWith(`..${path.sep}`)) {
    throw new Error(`A row names the file "${name}", outside the engine's files dir: the source is not as tubekit writes it.`);
  }
  return normal;
}
