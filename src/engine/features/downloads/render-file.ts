/**
 * Makes one download's file under its final name: rendered to a temporary name in the same
 * directory and renamed at the end, so the CDN never serves half a file.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { renderMp3, renderMp4, type RenderSubject } from '../../media/render.js';
import { transcriptToSrt } from '../../media/subtitles.js';
import { failIfDiskFullFault } from '../../store/disk-space.js';
import type { Settings } from '../../store/settings.js';

export interface DownloadFile {
  format: 'video' | 'audio' | 'subtitles';
  /** Frame height of a video. */
  height: number | null;
  subject: RenderSubject;
}

/** Renders to `file` and returns its size in bytes; `settings` lets the `disk-full` fault fail it. */
export async function renderDownloadFile(download: DownloadFile, file: string, signal?: AbortSignal, settings?: Settings): Promise<number> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    if (download.format === 'video') await renderMp4(download.subject, download.height!, temporary, signal);
    else if (download.format === 'audio') await renderMp3(download.subject, temporary, signal);
    else await fs.promises.writeFile(temporary, transcriptToSrt(download.subject.transcript!.cues));
    failIfDiskFullFault(settings, temporary);
    await fs.promises.rename(temporary, file);
    return (await fs.promises.stat(file)).size;
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}
