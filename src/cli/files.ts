import fs from 'node:fs';
import path from 'node:path';
import type { UploadedFile } from '../core/schemas/params.js';
import { usageError } from '../core/client-errors.js';
import { clip } from '../core/echo-text.js';

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'it is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENAMETOOLONG: 'the name is too long',
};

/**
 * A file the user named (a sample, a script, a request body), or a usage error that says which
 * file, in words: "Cannot read the audio file me: it is a directory, not a file."
 */
export function readUserFile(file: string, what: string): Buffer {
  if (file.trim() === '') throw usageError(`The ${what} path is empty; give a file name.`);
  try {
    if (fs.statSync(file).isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    return fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw usageError(`Cannot read the ${what} ${clip(file)}: ${REASONS[code] ?? (error as Error).message}.`);
  }
}

/** Declared types are a courtesy: the service judges an upload's format by its content. */
const CONTENT_TYPES: Record<string, string> = {
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
  '.webm': 'audio/webm',
  '.json': 'application/json',
  '.txt': 'text/plain',
};

/** A file the user named, as an upload: its name, a declared type from its extension, its bytes. */
export function readUpload(file: string, what: string): UploadedFile {
  const data = readUserFile(file, what);
  return { filename: path.basename(file), contentType: CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', data };
}
