/** Job shapes: channel processing (integer ids) and generation/analysis (string ids). */
import * as z from 'zod';
import { integer, oneOf, success, text } from './params.js';

import {
  CHANNEL_JOB_STATES,
  CHANNEL_JOB_TYPES,
  LONG_POLL_MAX_SECONDS,
  TASK_JOB_STATES,
  TASK_JOB_TYPES,
} from '../job-constants.js';

export * from '../job-constants.js';

export const processChannelInput = z.object({
  // Echoed back as `channel_input` exactly as sent (the spec's "raw submitted channel"): checked, not trimmed.
  channel: z
    .string({ error: 'must be text' })
    .max(500, { error: 'must be at most 500 characters' })
    .refine((value) => value.trim().length > 0, { error: 'must not be empty' }),
  type: oneOf(CHANNEL_JOB_TYPES),
  idempotency_key: text({ max: 200 }).optional(),
});

export const processChannelOutput = z.object({
  success,
  job_id: z.number().int(),
  status: oneOf(CHANNEL_JOB_STATES),
  type: oneOf(CHANNEL_JOB_TYPES),
  channel_input: z.string(),
  resolved_channel_id: z.string(),
  requested_at: z.string(),
  idempotent: z.literal(true).optional(),
});

/** 0 answers at once; 1–30 holds; above 30 is capped (not refused); anything else is a 400. */
export const waitSeconds = integer({ min: 0 }).transform((seconds) => Math.min(seconds, LONG_POLL_MAX_SECONDS));

export const channelJobStatusInput = z.object({
  job_id: integer({ min: 1 }),
  wait_seconds: waitSeconds.default(0),
});

export const channelJob = z.object({
  success,
  id: z.number().int(),
  status: oneOf(CHANNEL_JOB_STATES),
  type: oneOf(CHANNEL_JOB_TYPES),
  channel_input: z.string(),
  resolved_channel_id: z.string(),
  requested_at: z.string(),
  claimed_at: z.string().optional(),
  elapsed_seconds: z.number().int().optional(),
  completed_at: z.string().optional(),
  duration_seconds: z.number().int().optional(),
  eligible: z.boolean().optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
});
export type ChannelJob = z.infer<typeof channelJob>;


export const jobStatusInput = z.object({
  job_id: text({ max: 100 }),
  wait_seconds: waitSeconds.default(0),
});

export const taskJob = z.object({
  success,
  job_id: z.string(),
  type: oneOf(TASK_JOB_TYPES),
  status: oneOf(TASK_JOB_STATES),
  status_detail: z.string().optional(),
  status_detail_message: z.string().optional(),
  created_at: z.string(),
  started_at: z.string().optional(),
  completed_at: z.string().optional(),
  title: z.string().optional(),
  provider: z.string().optional(),
  voice_id: z.string().optional(),
  audio_url: z.string().optional(),
  transcript_url: z.string().optional(),
  audio_duration_seconds: z.number().optional(),
  video_url: z.string().optional(),
  video_id: z.string().optional(),
  media_resolution: z.string().optional(),
  analysis_text: z.string().optional(),
  cached: z.boolean().optional(),
  error: z.string().optional(),
});
export type TaskJob = z.infer<typeof taskJob>;

export const healthOutput = z.object({
  status: z.literal('healthy'),
  active_jobs: z.number().int(),
  total_jobs: z.number().int(),
  max_concurrent: z.number().int(),
  version: z.string().optional(),
  engine: z.string().optional(),
  /** The embedded engine's platform: the sample world or the live site (a field of ours). */
  platform: z.enum(['sample', 'live']).optional(),
});
