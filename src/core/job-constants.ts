/**
 * Job vocabulary as plain values. Kept apart from the zod schemas so the CLI can use them
 * without loading zod at start-up.
 */
export const LONG_POLL_MAX_SECONDS = 30;

export const CHANNEL_JOB_TYPES = ['shorts', 'longform'] as const;
export type ChannelJobType = (typeof CHANNEL_JOB_TYPES)[number];
export const CHANNEL_JOB_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type ChannelJobState = (typeof CHANNEL_JOB_STATES)[number];

export const TASK_JOB_STATES = ['pending', 'processing', 'completed', 'failed'] as const;
export type TaskJobState = (typeof TASK_JOB_STATES)[number];
export const TASK_JOB_TYPES = ['generation', 'analysis'] as const;

/** What `GET /api/jobs` lists (our extension): every kind, and the states of both families. */
export const JOB_KINDS = ['channel', ...TASK_JOB_TYPES] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATES = ['queued', 'pending', 'running', 'processing', 'completed', 'failed'] as const;
export const JOB_LIST_MAX = 100;

/**
 * Generation and analysis job ids: UUIDs, as the hosted service's (some public clients refuse
 * anything else), or the `gen_…`/`ana_…` ids earlier tubekit versions made, which still answer.
 */
export function isTaskJobId(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text) || /^(gen|ana)_[\w-]{1,64}$/.test(text);
}
