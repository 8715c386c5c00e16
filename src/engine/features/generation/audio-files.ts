/** Generated audio lives under `cdn/audio/<yyyy-mm>/<job_id>.{mp3,srt}` and is never deleted. */
import path from 'node:path';
import { cdnDir } from '../../paths.js';
import { writeFileAtomic } from '../../store/atomic-file.js';
import type { Settings } from '../../store/settings.js';

export interface AudioFiles {
  /** Paths relative to the CDN root, with forward slashes (they become URL paths). */
  audio: string;
  transcript: string;
}

/** Keyed by the job's own id and request month, so a retried job overwrites its own files. */
export function audioFilesFor(jobId: string, requestedAt: number): AudioFiles {
  const month = new Date(requestedAt).toISOString().slice(0, 7);
  return { audio: `audio/${month}/${jobId}.mp3`, transcript: `audio/${month}/${jobId}.srt` };
}

/** Transcript first (when there is one), audio last: once the MP3 exists, both are complete. */
export function storeAudioFiles(filesDir: string, files: AudioFiles, mp3: Buffer, srt: string | null, settings?: Settings): void {
  const root = cdnDir(filesDir);
  if (srt !== null) writeFileAtomic(path.join(root, files.transcript), srt, settings);
  writeFileAtomic(path.join(root, files.audio), mp3, settings);
}
