/**
 * Saves a download: fetched through the Service (which resumes a broken transfer and never sends
 * the key to a CDN), written to a hidden temporary file beside the target and moved into place at
 * the end — so Ctrl-C, a dropped connection or a full disk leave nothing under the final name (and
 * a part left by a killed run goes at the next save, see part-file.ts).
 * Without --force the final step refuses to replace a file that appeared meanwhile.
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { CliApp } from '../app.js';
import { claimPartFile, releasePartFile } from '../part-file.js';
import { transferProgress } from '../transfer-progress.js';
import { exists } from './output-target.js';

export interface SaveOptions {
  totalBytes?: number;
  force: boolean;
  signal?: AbortSignal;
}

/** Streams the file to stdout. */
export async function streamToStdout(app: CliApp, url: string, options: SaveOptions): Promise<void> {
  const service = await app.service();
  const source = await service.fetchFile(url, { signal: options.signal });
  const progress = transferProgress(app.io, options.totalBytes);
  await pipeline(source, progress.meter, app.io.streams.stdout, { end: false, signal: options.signal });
  progress.finish();
}

export async function saveToFile(app: CliApp, url: string, file: string, options: SaveOptions): Promise<void> {
  const service = await app.service();
  const temporary = claimPartFile(file);
  const progress = transferProgress(app.io, options.totalBytes);
  try {
    const source = await service.fetchFile(url, { signal: options.signal });
    await pipeline(source, progress.meter, fs.createWriteStream(temporary, { mode: 0o644 }), { signal: options.signal });
    progress.finish();
    if (options.force) fs.renameSync(temporary, file);
    else moveWithoutReplacing(temporary, file);
  } catch (error) {
    progress.finish();
    throw error;
  } finally {
    releasePartFile(temporary);
  }
}

/** A hard link fails when the name is taken, so no file that appeared meanwhile is replaced. */
function moveWithoutReplacing(temporary: string, file: string): void {
  try {
    fs.linkSync(temporary, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw exists(file);
    // Filesystems without hard links: check, then rename.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
    if (fs.existsSync(file)) throw exists(file);
    fs.renameSync(temporary, file);
    return;
  }
}
