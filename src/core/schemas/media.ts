/** Video download and AI video analysis. */
import * as z from 'zod';
import { MEDIA_TIME_FORMS, parseMediaTime } from '../media-time.js';
import { jsonBody, oneOf, success, text } from './params.js';

export const DOWNLOAD_FORMATS = ['video', 'audio', 'subtitles'] as const;
export const DOWNLOAD_QUALITIES = ['360p', '480p', '720p', '1080p'] as const;

/** `1:30`, `00:01:30`, `90`, `90s`, `1m30s`, or a number of seconds; parsed to seconds. */
const timestamp = z.union([z.number(), z.string()], { error: `must be ${MEDIA_TIME_FORMS}` }).transform((value, context) => {
  const time = parseMediaTime(value);
  if (time.ok) return time.seconds;
  context.addIssue({ code: 'custom', message: time.message });
  return z.NEVER;
});

export const downloadInput = jsonBody({
  video_url: text({ max: 2000 }),
  format: oneOf(DOWNLOAD_FORMATS).default('video'),
  // `720` (as the answer gives it) means `720p`.
  quality: z.preprocess((value) => (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim())) ? `${String(value).trim()}p` : value), oneOf(DOWNLOAD_QUALITIES)).default('720p'),
  // null is "not given", as JSON clients often send it.
  start: timestamp.nullish(),
  end: timestamp.nullish(),
});

export const downloadOutput = z.object({
  success,
  download_url: z.string(),
  video_id: z.string(),
  title: z.string(),
  duration_seconds: z.number(),
  size_bytes: z.number().int(),
  cached: z.boolean(),
  format: oneOf(DOWNLOAD_FORMATS),
  quality: z.number().int(),
  start_seconds: z.number().nullable(),
  end_seconds: z.number().nullable(),
});

export const ANALYSIS_PROMPT_MAX = 4000;
export const ANALYSIS_RESOLUTIONS = ['low', 'default'] as const;
export const analyzeInput = jsonBody({
  video_url: text({ max: 2000 }),
  prompt: text({ max: ANALYSIS_PROMPT_MAX }),
  media_resolution: oneOf(ANALYSIS_RESOLUTIONS).default('low'),
});
export const analyzeOutput = z.object({
  success,
  job_id: z.string(),
  status: z.literal('pending'),
  /** True when an upload of this video by this user from the last 2 hours is reused. */
  cached: z.boolean(),
  /** Free during preview. */
  credits_charged: z.literal(0),
  /** Length of the video analysed, in seconds. */
  duration_seconds: z.number(),
});
