/**
 * wait_for_job: long-polls a job's status route until the job ends or the caller's limit passes,
 * reporting progress when it starts and after each poll. The same status routes as get_job and get_channel_job, so
 * waiting on a job is exactly polling it, only without the agent's round trips.
 */
import { badRequest } from '../core/errors.js';
import { LONG_POLL_MAX_SECONDS } from '../core/job-constants.js';
import type { RouteOutput } from '../core/routes.js';
import type { Service } from '../core/service.js';

export const WAIT_FOR_JOB_MAX_SECONDS = 600;
const WAIT_FOR_JOB_DEFAULT_SECONDS = 120;

export type WaitedJob =
  | { route: 'channels.processStatus'; body: RouteOutput<'channels.processStatus'> }
  | { route: 'jobs.status'; body: RouteOutput<'jobs.status'> };

export interface JobProgress {
  elapsedSeconds: number;
  totalSeconds: number;
  message: string;
}

interface WaitRequest {
  route: WaitedJob['route'];
  jobId: string | number;
  seconds: number;
}

/** The arguments checked as a route checks its input: a 400 naming the field. */
function parseArguments(args: Record<string, unknown>): WaitRequest {
  const { job_id: jobId, kind, timeout_seconds: timeout = WAIT_FOR_JOB_DEFAULT_SECONDS } = args;
  if (jobId === undefined || jobId === null || jobId === '') throw badRequest('Invalid request: job_id: is required.');
  if (typeof jobId !== 'string' && !(typeof jobId === 'number' && Number.isInteger(jobId))) throw badRequest('Invalid request: job_id: must be the text or the number a submit returned.');
  if (kind !== undefined && kind !== 'channel' && kind !== 'task') throw badRequest('Invalid request: kind: must be one of: channel, task.');
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > WAIT_FOR_JOB_MAX_SECONDS) {
    throw badRequest(`Invalid request: timeout_seconds: must be an integer from 1 to ${WAIT_FOR_JOB_MAX_SECONDS}.`);
  }
  // Generation and analysis ids are text (`gen_…`); channel job ids are numbers.
  const channel = kind === 'channel' || (kind === undefined && (typeof jobId === 'number' || /^\d+$/.test(jobId)));
  return { route: channel ? 'channels.processStatus' : 'jobs.status', jobId, seconds: timeout };
}

const isFinished = (status: string) => status === 'completed' || status === 'failed';

function describe(job: WaitedJob): string {
  const body = job.body as { status: string; status_detail_message?: string };
  return body.status_detail_message ? `${body.status}: ${body.status_detail_message}` : body.status;
}

export async function waitForJob(
  service: Service,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal; progress?: (progress: JobProgress) => Promise<void> } = {},
): Promise<WaitedJob> {
  const request = parseArguments(args);
  const started = Date.now();
  const deadline = started + request.seconds * 1000;
  // Said at once: the client knows the wait began. (A notification that reaches the MCP client in
  // the same read as the response is dropped by its SDK, so the last one alone may never arrive.)
  await options.progress?.({ elapsedSeconds: 0, totalSeconds: request.seconds, message: 'waiting' });
  for (;;) {
    const remaining = deadline - Date.now();
    const waitSeconds = Math.max(0, Math.min(LONG_POLL_MAX_SECONDS, Math.ceil(remaining / 1000)));
    const input = { job_id: request.jobId, wait_seconds: waitSeconds } as never;
    const job = { route: request.route, body: await service.call(request.route, input, { signal: options.signal }) } as WaitedJob;
    const elapsedSeconds = Math.min(request.seconds, (Date.now() - started) / 1000);
    await options.progress?.({ elapsedSeconds, totalSeconds: request.seconds, message: describe(job) });
    if (isFinished(job.body.status) || Date.now() >= deadline || options.signal?.aborted) return job;
  }
}
