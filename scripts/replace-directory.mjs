// Swaps a finished build in for the old one with renames, so a `tubekit` linked to this checkout
// never finds a half-written dist/: until the swap it runs the old build, after it the new one.
import { existsSync, renameSync, rmSync } from 'node:fs';

/**
 * Puts `next` (a complete directory) in place of `target`. A directory cannot be renamed over a
 * non-empty one, so the old build is first renamed aside — the two renames follow each other at
 * once, leaving `target` missing for microseconds instead of the whole build — then removed.
 */
export function replaceDirectory(next, target) {
  const old = `${target}.old-${process.pid}`;
  const hadTarget = existsSync(target);
  if (hadTarget) renameSync(target, old);
  try {
    renameSync(next, target);
  } catch (error) {
    if (hadTarget) renameSync(old, target);
    throw error;
  }
  if (hadTarget) rmSync(old, { recursive: true, force: true });
}
