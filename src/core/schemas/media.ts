/** Video download and AI video analysis. */
import { z } from 'zod';
import { oneOf, success, text } from './params.js';

export const DOWNLOAD_FORMATS = ['video', 'audio', 'subtitles'] as const;
export const DOWNLOAD_QUALITIES = ['360p', '480p', '720p', '1080p'] as const;

/** `1:30`, `00:01:30`, `90`, `90s`, or a number of seconds. */
const timestamp = z.union([z.number().nonnegative(), z.string().trim().min(1)], {
  error: 'must be a time like 1:30, 00:01:30, 90, 90s or a number of seconds',
});

export const downloadInput = z.object({
  video_url: text({ max: 2000 }),
  format: oneOf(DOWNLOAD_FORMATS).default('video'),
  quality: oneOf(DOWNLOAD_QUALITIES).default('720p'),
  start: timestamp.optional(),
  end: timestamp.optional(),
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
export const analyzeInput = z.object({
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
