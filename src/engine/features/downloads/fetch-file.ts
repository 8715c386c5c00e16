/**
 * Makes one download's file from a platform's media source under its final name: fetched in a
 * scratch folder of the data dir and renamed into place at the end, so the CDN never serves half a
 * file, and a fetch killed midway leaves only a scratch folder that the next render sweeps.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { MediaChoice, MediaDescription, MediaProgress, MediaSection, PlatformMedia } from '../../platform/media.js';
import { withScratchDir } from '../../scratch.js';
import { placeFileAtomic } from '../../store/atomic-file.js';

export interface MediaWanted {
  description: MediaDescription;
  choice: MediaChoice;
  section: MediaSection;
}

/** Fetches to `file` and returns its size in bytes. */
export async function fetchDownloadFile(
  media: PlatformMedia,
  wanted: MediaWanted,
  file: string,
  options: { dataDir: string; signal?: AbortSignal; onProgress?: (progress: MediaProgress) => void },
): Promise<number> {
  return withScratchDir(options.dataDir, 'fetch', async (workDir) => {
    const fetched = path.join(workDir, `output${path.extname(file)}`);
    await media.fetch(wanted.description, wanted.choice, wanted.section, fetched, { workDir, signal: options.signal, onProgress: options.onProgress });
    // The cache entry's folder is made only for a complete file: a failed fetch leaves nothing there.
    await placeFileAtomic(fetched, file);
    return (await fs.promises.stat(file)).size;
  });
}
