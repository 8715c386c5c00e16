/**
 * Saves a file the service handed out (a job's audio_url, a download_url) to a path, or to stdout
 * with "-". The Service fetches it (never sending the key to a CDN); the file is written under a
 * temporary name and renamed, so an interrupted download leaves no half file behind.
 */
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { CliApp } from './app.js';
import { claimPartFile, releasePartFile } from './part-file.js';

export async function saveServiceFile(app: CliApp, url: string, target: string): Promise<void> {
  const service = await app.service();
  const source = await service.fetchFile(url);
  if (target === '-') {
    await pipeline(source, app.io.streams.stdout, { end: false });
    return;
  }
  const temporary = claimPartFile(target);
  try {
    await pipeline(source, fs.createWriteStream(temporary));
    fs.renameSync(temporary, target);
  } finally {
    releasePartFile(temporary);
  }
}
