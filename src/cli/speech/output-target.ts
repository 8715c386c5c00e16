import fs from 'node:fs';
import path from 'node:path';
import { usageError } from '../errors.js';

/** `-o <file>` is checked before anything is queued, so a typo costs no generation. */
export function checkOutputTarget(target: string): void {
  if (target === '-') return;
  const directory = path.dirname(path.resolve(target));
  try {
    fs.accessSync(directory, fs.constants.W_OK);
  } catch {
    throw usageError(`Cannot write ${target}: the directory ${directory} does not exist or is not writable.`);
  }
  if (fs.existsSync(target) && fs.statSync(target).isDirectory()) {
    throw usageError(`Cannot write ${target}: it is a directory; give a file name such as ${path.join(target, 'speech.mp3')}.`);
  }
}
