/**
 * What a download request comes to once everything that can be judged from it is judged: the
 * video, the section, the height asked and delivered, the cache entry it names, and how the file
 * is made. The sample world renders its media (sample-plan.ts); a platform with a media source
 * fetches them (media-plan.ts). download.ts takes either through the ledger the same way.
 */
import { isVideoId } from '../../../core/channel-input.js';
import type { ParsedInput } from '../../../core/routes.js';
import type { RequestContext } from '../../context.js';
import type { MediaProgress } from '../../platform/media.js';
import { workDuration } from '../../simulated-work.js';
import { downloadFileName } from './file-names.js';
import type { CacheTarget } from './ledger.js';
import type { Section } from './section.js';

export type DownloadInput = ParsedInput<'download'>;
export type DownloadFormat = DownloadInput['format'];

export interface MakeOptions {
  signal?: AbortSignal;
  onProgress?: (progress: MediaProgress) => void;
}

export interface DownloadPlan {
  video: { video_id: string; title: string; duration_seconds: number };
  section: Section;
  format: DownloadFormat;
  requestedHeight: number | null;
  /** The height the file has (video), which may be lower than asked. */
  height: number | null;
  /** Why it is lower, when it is. */
  lowerQualityReason: string | null;
  target: CacheTarget;
  /** What must hold before a slot is taken when a file is to be made (captions exist, tools present). */
  prepare(): Promise<void>;
  /** Makes the file at `file` (its final place: written elsewhere and renamed there); returns its size. */
  make(file: string, options: MakeOptions): Promise<number>;
}

/** The cache entry a request names: one per (video, format, quality, time range). */
export function cacheTarget(
  request: RequestContext,
  wanted: { videoId: string; title: string; format: DownloadFormat; height: number | null },
  section: Section,
  videoSeconds: number,
  msPerSecond: number,
): CacheTarget {
  const { format, height, videoId } = wanted;
  // The id names folders in the files dir: only a validated one may (never one read from a platform's answer).
  if (!isVideoId(videoId)) throw new Error(`Refused a download cache entry for an invalid video id ${JSON.stringify(videoId)}.`);
  const ms = (seconds: number) => Math.round(seconds * 1000);
  const variant = format === 'subtitles' ? 'subtitles' : [format, height ? `${height}p` : null, ms(section.start), ms(section.end)].filter((part) => part !== null).join('-');
  const whole = section.start === 0 && section.end === videoSeconds;
  const name = downloadFileName({
    title: wanted.title,
    videoId,
    format,
    height,
    clip: format === 'subtitles' || whole ? null : { start: section.start, end: section.end },
  });
  const seconds = section.end - section.start;
  return {
    key: `${videoId}|${variant}`,
    videoId,
    format,
    path: `downloads/${videoId}/${variant}/${name}`,
    // Whole milliseconds: the slot's expected end is an integer column (BIGINT on Postgres), and a clip's length is not whole.
    expectedMs: Math.ceil(1000 + seconds * msPerSecond + workDuration(request.engine.settings, 'download').max_ms),
  };
}
