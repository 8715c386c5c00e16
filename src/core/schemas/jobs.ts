/** Job shapes: channel processing (integer ids) and generation/analysis (string ids). */
import * as z from 'zod';
import { integer, jsonBody, oneOf, success, text } from './params.js';

import {
  CHANNEL_JOB_STATES,
  CHANNEL_JOB_TYPES,
  JOB_KINDS,
  JOB_LIST_MAX,
  JOB_STATES,
  LONG_POLL_MAX_SECONDS,
  TASK_JOB_STATES,
  TASK_JOB_TYPES,
} from '../job-constants.js';

export * from '../job-constants.js';

export const processChannelInput = jsonBody({
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
  /** The same text as `error` (the hosted service's second name for it). */
  error_message: z.string().optional(),
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
  /** Ours: the characters each call to the upstream speech provider was sent (what the operator pays for). */
  upstream_characters: z.array(z.number().int()).optional(),
  video_url: z.string().optional(),
  video_id: z.string().optional(),
  media_resolution: z.string().optional(),
  analysis_text: z.string().optional(),
  cached: z.boolean().optional(),
  error: z.string().optional(),
  /** The same text as `error` (the hosted service's second name for it). */
  error_message: z.string().optional(),
});
export type TaskJob = z.infer<typeof taskJob>;

/** `GET /api/jobs` (our extension): the caller's recent jobs of every kind, newest first. */
export const jobListInput = z.object({
  kind: oneOf(JOB_KINDS).optional(),
  status: oneOf(JOB_STATES).optional(),
  limit: integer({ min: 1, max: JOB_LIST_MAX }).default(20),
});

export const jobListEntry = z.object({
  /** What the job's own status route takes: a number for channel jobs, a UUID for the others. */
  job_id: z.union([z.number().int(), z.string()]),
  kind: oneOf(JOB_KINDS),
  /** Channel jobs: shorts or longform; the others repeat their kind. */
  type: z.string(),
  status: oneOf(JOB_STATES),
  /** What the job is about: the channel as sent, the generation's title, the analysed video's URL. */
  subject: z.string(),
  created_at: z.string(),
  started_at: z.string().optional(),
  completed_at: z.string().optional(),
  error: z.string().optional(),
  error_message: z.string().optional(),
});
export type JobListEntry = z.infer<typeof jobListEntry>;

export const jobListOutput = z.object({
  success,
  jobs: z.array(jobListEntry),
  count: z.number().int(),
});

export const healthProblem = z.object({
  check: z.enum(['workers', 'ffmpeg', 'database', 'disk']).describe('What is wrong: no worker alive while jobs wait, no ffmpeg, a database refusing writes, a disk nearly full.'),
  message: z.string().describe('What it breaks, and how to fix it.'),
});

/** Without a key only `status` (and our `version`, `engine`); the job counts and problems need one. */
export const healthOutput = z.object({
  status: z.enum(['healthy', 'degraded']).describe('`degraded` (ours) when something keeps the service from its work; `problems` says what.'),
  active_jobs: z.number().int().optional().describe('The caller\'s queued and running jobs; with a key.'),
  total_jobs: z.number().int().optional().describe('All the caller\'s jobs; with a key.'),
  max_concurrent: z.number().int().optional().describe('Jobs of the caller processed at once; with a key.'),
  problems: z.array(healthProblem).optional().describe('Ours, with a key: why the service is degraded (empty when healthy).'),
  version: z.string().optional(),
  engine: z.string().optional(),
  /** The embedded engine's platform: the sample world or the live site (a field of ours). */
  platform: z.enum(['sample', 'live']).optional(),
  store: z
    .object({
      kind: z.enum(['sqlite', 'postgres']).describe('Where the engine keeps its state: the data dir\'s SQLite file, or a fleet\'s PostgreSQL.'),
      reachable: z.boolean().describe('Whether the database answered just now.'),
      schema_version: z.number().int().nullable().describe('The highest migration applied (null while unreachable).'),
    })
    .optional()
    .describe('Ours: the engine\'s store, for readiness checks of a fleet.'),
});
