import type { TaskJob } from '../../core/schemas/jobs.js';
import type { CliApp } from '../app.js';
import { jobFailed } from '../errors.js';
import { watchJob } from '../watch.js';

/**
 * Waits for a generation or analysis job with long-polls (spinner on a terminal) and returns
 * its final body; a job that ended `failed` becomes exit 1 with the job's error.
 */
export async function watchTaskJob(
  app: CliApp,
  jobId: string,
  options: { timeoutSeconds?: number; initial?: TaskJob } = {},
): Promise<TaskJob> {
  const job = await watchJob<TaskJob>({
    io: app.io,
    label: `Job ${jobId}`,
    resumeCommand: `tubekit job ${jobId} --watch`,
    poll: (waitSeconds, signal) => app.call('jobs.status', { job_id: jobId, wait_seconds: waitSeconds }, { signal }),
    state: (body) => body.status,
    isTerminal: (body) => body.status === 'completed' || body.status === 'failed',
    isWaiting: (body) => body.status === 'pending',
    timeoutSeconds: options.timeoutSeconds,
    initial: options.initial,
  });
  return job;
}

/** A failed job's error, raised after its body has been printed. */
export function failIfFailed(job: TaskJob): void {
  if (job.status === 'failed') throw jobFailed(`Job ${job.job_id} failed: ${job.error ?? 'no reason given'}`);
}
