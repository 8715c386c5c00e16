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
  /** The delivered height, which may be lower than asked (then requested_quality and quality_note say so). */
  quality: z.number().int(),
  /** Ours, present only when a lower height than asked was delivered: the height asked for. */
  requested_quality: z.number().int().optional(),
  /** Ours, present only then too: the delivered and asked heights in words. */
  quality_note: z.string().optional(),
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

/** `GET /api/video?url=` (ours): one video's metadata, in the fields and names of `yt-dlp --dump-json`. */
export const videoInfoInput = z.object({ url: text({ max: 2000 }) });
export const videoInfoOutput = z.object({
  success,
  id: z.string(),
  title: z.string(),
  fulltitle: z.string(),
  webpage_url: z.string(),
  original_url: z.string(),
  extractor: z.literal('youtube'),
  extractor_key: z.literal('Youtube'),
  channel: z.string().nullable(),
  channel_id: z.string(),
  channel_url: z.string(),
  channel_follower_count: z.number().int().nullable(),
  uploader: z.string().nullable(),
  uploader_id: z.string().nullable(),
  uploader_url: z.string().nullable(),
  /** Seconds; null for a premiere that has not started, or when the platform did not give it. */
  duration: z.number().nullable(),
  duration_string: z.string().nullable(),
  /** The counts the platform shows; null when the page did not give one (never 0 for "unknown"). */
  view_count: z.number().int().nullable(),
  like_count: z.number().int().nullable(),
  comment_count: z.number().int().nullable(),
  /** `YYYYMMDD` and epoch seconds of publication; for a premiere, the release_* fields say when. */
  upload_date: z.string().nullable(),
  timestamp: z.number().int().nullable(),
  /** Ours: false when the date is estimated from a relative one ("17 hours ago"); null when there is no date. */
  published_at_exact: z.boolean().nullable(),
  release_date: z.string().nullable(),
  release_timestamp: z.number().int().nullable(),
  live_status: oneOf(['not_live', 'is_upcoming']),
  media_type: oneOf(['video', 'short']),
  availability: z.literal('public'),
  thumbnail: z.string(),
  thumbnails: z.array(z.object({ id: z.string(), url: z.string() })),
  categories: z.array(z.string()),
  /** ISO 639-1 code of the channel's language, when known. */
  language: z.string().nullable(),
  /** Ours: which captions the video has (`human`, `auto`) or null; `download --format subtitles` fetches them. */
  captions: oneOf(['human', 'auto']).nullable(),
});
