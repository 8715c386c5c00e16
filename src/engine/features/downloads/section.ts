/**
 * Which part of a video a download carries. Video and audio: from `start` (default the beginning)
 * to `end` (default the end); an `end` past the video's end is clamped to it; a `start` past the
 * end, or not before `end`, is a 400 naming the field. Subtitles always carry the whole
 * transcript: their `start` and `end` are ignored (still checked as times by the schema).
 */
import { badRequest } from '../../../core/errors.js';
import { formatMediaTime } from '../../../core/media-time.js';

export interface Section {
  start: number;
  end: number;
  /** What the answer echoes: the requested start, and the end as delivered (clamped). */
  startSeconds: number | null;
  endSeconds: number | null;
}

export function requestedSection(
  durationSeconds: number,
  format: 'video' | 'audio' | 'subtitles',
  start: number | null | undefined,
  end: number | null | undefined,
): Section {
  if (format === 'subtitles' || ((start === undefined || start === null) && (end === undefined || end === null))) {
    return { start: 0, end: durationSeconds, startSeconds: null, endSeconds: null };
  }
  const from = start ?? 0;
  if (from >= durationSeconds) {
    throw badRequest(
      `Invalid request: start: ${formatMediaTime(from)} is past the end of the video (it is ${formatMediaTime(durationSeconds)} long).`,
      'Give a start inside the video, or leave it out to start at the beginning.',
    );
  }
  if (end !== undefined && end !== null && from >= end) {
    throw badRequest(`Invalid request: start (${formatMediaTime(from)}) must be before end (${formatMediaTime(end)}).`);
  }
  const to = end === undefined || end === null ? durationSeconds : Math.min(end, durationSeconds);
  return { start: from, end: to, startSeconds: start ?? null, endSeconds: end === undefined || end === null ? null : to };
}
