/**
 * Paths under a root folder (the files dir) that provably stay inside it: a relative path is
 * refused when it is absolute or climbs out with `..`, and again when its deepest existing part
 * resolves (through symlinks) outside the root's real place. Every file the engine writes, serves
 * or removes under the files dir goes through here, so a name taken from outside data can never
 * reach another folder.
 */
import fs from 'node:fs';
import path from 'node:path';

export class OutsideRootError extends Error {
  constructor(relativePath: string) {
    super(`Refused a path outside the files dir: ${JSON.stringify(relativePath)}.`);
    this.name = 'OutsideRootError';
  }
}

/** `relativePath` joined to `root`, or OutsideRootError when it leaves the root (lexically or through a link). */
export function containedPath(root: string, relativePath: string): string {
  const base = path.resolve(root);
  const joined = path.resolve(base, relativePath);
  if (path.isAbsolute(relativePath) || relativePath.includes('\0') || !isInside(base, joined) || joined === base) throw new OutsideRootError(relativePath);
  const realBase = realOrSelf(base);
  // The deepest part that exists is where a link could lead elsewhere; what is below it is made by the engine.
  let existing = joined;
  while (existing !== base && !fs.lstatSync(existing, { throwIfNoEntry: false })) existing = path.dirname(existing);
  if (existing === base) return joined;
  let real: string;
  try {
    real = fs.realpathSync(existing);
  } catch {
    throw new OutsideRootError(relativePath); // a dangling link: where it leads cannot be checked
  }
  if (!isInside(realBase, real)) throw new OutsideRootError(relativePath);
  return joined;
}

/** Whether `candidate` is `base` or below it (both absolute and resolved). */
export function isInside(base: string, candidate: string): boolean {
  const relative = path.relative(base, candidate);
  return relative === '' || (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

function realOrSelf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
