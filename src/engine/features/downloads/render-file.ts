/**
 * Makes one download's file under its final name: rendered in a scratch folder of the data dir and
 * placed at the end (renamed, or copied beside it and renamed when the files dir is another mount), so the CDN never serves half a file, and a render killed midway
 * leaves only a scratch folder that the next render sweeps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderMp3, renderMp4, type RenderSubject } from '../../media/render.js';
import { transcriptToSrt } from '../../media/subtitles.js';
import { withScratchDir } from '../../scratch.js';
import { placeFileAtomic } from '../../store/atomic-file.js';
import { failIfDiskFullFault } from '../../store/disk-space.js';
import type { Settings } from '../../store/settings.js';

export interface DownloadFile {
  format: 'video' | 'audio' | 'subtitles';
  /** Frame height of a video. */
  height: number | null;
  subject: RenderSubject;
}

/** Renders to `file` and returns its size in bytes; `settings` lets the `disk-full` fault fail it. */
export async function renderDownloadFile(download: DownloadFile, file: string, options: { dataDir: string; signal?: AbortSignal; settings?: Settings }): Promise<number> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  return withScratchDir(options.dataDir, 'render', async (workDir) => {
    const rendered = path.join(workDir, 'output');
    const place = { workDir, signal: options.signal };
    if (download.format === 'video') await renderMp4(download.subject, download.height!, rendered, place);
    else if (download.format === 'audio') await renderMp3(download.subject, rendered, place);
    else await fs.promises.writeFile(rendered, transcriptToSrt(download.subject.transcript!.cues));
    failIfDiskFullFault(options.settings, rendered);
    await placeFileAtomic(rendered, file);
    return (await fs.promises.stat(file)).size;
  });
}
