/**
 * Saves a file the service handed out (a download_url, a job's audio_url) to a path, or to stdout
 * with "-". The Service fetches it (resuming a broken transfer, never sending the key to a CDN);
 * a file is written by the one -o helper (temporary file, renamed; no overwrite without --force).
 */
import { pipeline } from 'node:stream/promises';
import type { CliApp } from './app.js';
import { writeFileAtomically } from './output-file.js';
import { transferProgress } from './transfer-progress.js';

export interface SaveOptions {
  force: boolean;
  /** The size the service announced, for the progress bar. */
  totalBytes?: number;
  signal?: AbortSignal;
}

export async function saveServiceFile(app: CliApp, url: string, target: string, options: SaveOptions): Promise<void> {
  const service = await app.service();
  const progress = transferProgress(app.io, options.totalBytes);
  try {
    const source = await service.fetchFile(url, { signal: options.signal });
    if (target === '-') await pipeline(source, progress.meter, app.io.streams.stdout, { end: false, signal: options.signal });
    else await writeFileAtomically(target, source, { force: options.force, through: [progress.meter], signal: options.signal });
  } finally {
    progress.finish();
  }
}
