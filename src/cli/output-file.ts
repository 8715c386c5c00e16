/**
 * The one `-o <file>` policy of every command that writes a file (download, generate, job,
 * analyze): the target is checked before any work starts; an existing file is never replaced
 * without --force; and the bytes go to a hidden temporary file beside the target that is moved
 * into place at the end, so Ctrl-C, a dropped connection or a full disk leave nothing under the
 * final name (a part a killed run left goes at the next write: part-file.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { usageError } from '../core/client-errors.js';
import { claimPartFile, releasePartFile } from './part-file.js';

export interface WriteOptions {
  /** Replace a file already under the name. */
  force: boolean;
  /** Stages the bytes pass through on their way to the file (a progress meter). */
  through?: NodeJS.ReadWriteStream[];
  signal?: AbortSignal;
}

export const fileExists = (shown: string) =>
  usageError(`${shown} already exists; tubekit does not write over a file without --force.`, 'Pass --force to overwrite it, or choose another name with -o.');

/**
 * Checks a file the user asked output to be written to, before any work: its directory must exist
 * and be writable, it must not be a directory, and without `force` it must not exist yet.
 * `example` names a file to suggest in place of a directory.
 */
export function checkOutputFile(target: string, options: { force: boolean; example: string }): void {
  if (target.trim() === '') throw usageError('The -o path is empty; give a file name.');
  const directory = path.dirname(path.resolve(target));
  try {
    fs.accessSync(directory, fs.constants.W_OK);
  } catch {
    throw usageError(`Cannot write ${target}: the directory ${directory} does not exist or is not writable.`);
  }
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw usageError(`Cannot write ${target}: it is a directory; give a file name such as ${path.join(target, options.example)}.`);
  if (stat && !options.force) throw fileExists(target);
}

/** Writes `content` (text, bytes or a stream) to `target` through a temporary file. */
export async function writeFileAtomically(target: string, content: string | Uint8Array | NodeJS.ReadableStream, options: WriteOptions): Promise<void> {
  const temporary = claimPartFile(target);
  try {
    if (typeof content === 'string' || content instanceof Uint8Array) fs.writeFileSync(temporary, content, { mode: 0o644 });
    else await pipeline([content, ...(options.through ?? []), fs.createWriteStream(temporary, { mode: 0o644 })], { signal: options.signal });
    if (options.force) fs.renameSync(temporary, target);
    else moveWithoutReplacing(temporary, target);
  } finally {
    releasePartFile(temporary);
  }
}

/** A hard link fails when the name is taken, so no file that appeared meanwhile is replaced. */
function moveWithoutReplacing(temporary: string, target: string): void {
  try {
    fs.linkSync(temporary, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw fileExists(target);
    // Filesystems without hard links: check, then rename.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
    if (fs.existsSync(target)) throw fileExists(target);
    fs.renameSync(temporary, target);
  }
}
