/**
 * Where `tubekit download` writes: stdout (`-o -`), a named file, or a directory (`-o <dir>`, or
 * the current directory) under the served file name. Whatever can be judged before the request
 * is judged then, so a typo costs no download.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CliApp } from '../app.js';
import { usageError } from '../../core/client-errors.js';
import { checkOutputFile, fileExists } from '../output-file.js';

export type OutputTarget = { kind: 'stdout' } | { kind: 'file'; path: string } | { kind: 'directory'; path: string };

export function outputTarget(app: CliApp, output: string | undefined, force: boolean): OutputTarget {
  if (output === '-') {
    if (app.json) throw usageError('-o - writes the file to stdout, where --json would write the body.', 'Save it to a file with -o <path>, or drop --json.');
    if (app.io.stdoutIsTerminal) throw usageError('-o - writes the file to stdout, which is a terminal.', 'Redirect it (-o - > clip.mp4, or | a player), or give a path: -o clip.mp4.');
    return { kind: 'stdout' };
  }
  const given = output ?? '.';
  const resolved = path.resolve(given);
  const stat = fs.statSync(resolved, { throwIfNoEntry: false });
  if (stat?.isDirectory()) {
    checkWritable(resolved, given);
    return { kind: 'directory', path: resolved };
  }
  if (/[/\\]$/.test(given)) throw usageError(`Cannot save into ${given}: there is no such directory.`, `Create it first (mkdir -p ${given}), or give a file name.`);
  checkOutputFile(given, { force, example: 'clip.mp4' });
  return { kind: 'file', path: resolved };
}

/** The file to write for a target, once the served name is known. */
export function finalPath(target: Exclude<OutputTarget, { kind: 'stdout' }>, servedName: string, force: boolean): string {
  if (target.kind === 'file') return target.path;
  const file = path.join(target.path, servedName);
  if (!force && fs.existsSync(file)) throw fileExists(path.relative(process.cwd(), file) || file);
  return file;
}

function checkWritable(directory: string, shown: string): void {
  try {
    fs.accessSync(directory, fs.constants.W_OK);
  } catch {
    throw usageError(`Cannot save into ${shown}: the directory does not exist or is not writable.`);
  }
}

/**
 * The served name (the download URL's last segment), made safe for this machine; when it does not
 * look like a file of the right kind (another service's URL shape), the title is used instead.
 */
export function servedFileName(downloadUrl: string, title: string, extension: string): string {
  let name = '';
  try {
    name = decodeURIComponent(new URL(downloadUrl).pathname.split('/').pop() ?? '');
  } catch {
    name = '';
  }
  const safe = (text: string) => text.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  const served = safe(name);
  if (served.toLowerCase().endsWith(`.${extension}`) && served.length > extension.length + 1) return served;
  return `${safe(title).slice(0, 150) || 'download'}.${extension}`;
}
