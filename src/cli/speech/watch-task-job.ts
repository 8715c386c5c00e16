import type { TaskJob } from '../../core/schemas/jobs.js';
import type { CliApp } from '../app.js';
import { jobFailed } from '../../core/client-errors.js';
import { watchJob } from '../watch.js';

/** A word as a shell reads it back: quoted only when it has to be. */
const shellWord = (word: string) => (/^[\w./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * Poll intervals where the server answers at once: the spec tells analysis clients every 5 s;
 * generation finishes in seconds, so every 2 s.
 */
const POLL_SECONDS = { generation: 2, analysis: 5 } as const;

/**
 * The pace for a job: by the type its body names, or the command knew it by; the hosted service's
 * body names none, so an analysis is known by its fields, and a job of unknown kind is polled at
 * the analysis pace (never faster than the spec asks of analysis clients).
 */
export function taskPollSeconds(body: Partial<TaskJob> | undefined, known?: TaskJob['type']): number {
  const type = body?.type ?? known ?? (body && ('analysis_text' in body || 'video_url' in body) ? 'analysis' : undefined);
  return type ? POLL_SECONDS[type] : POLL_SECONDS.analysis;
}

/**
 * Waits for a generation or analysis job with long-polls (spinner on a terminal) and returns
 * its final body (the caller decides what a `failed` one means: see failIfFailed).
 */
export async function watchTaskJob(
  app: CliApp,
  jobId: string,
  options: { timeoutSeconds?: number; initial?: TaskJob; output?: string; type?: TaskJob['type'] } = {},
): Promise<TaskJob> {
  // Resuming after Ctrl-C or a timeout should still save the audio where it was asked for.
  const saveTo = options.output === undefined ? '' : ` -o ${shellWord(options.output)}`;
  const job = await watchJob<TaskJob>({
    io: app.io,
    label: `Job ${jobId}`,
    resumeCommand: `tubekit job ${jobId} --watch${saveTo}`,
    poll: (waitSeconds, signal) => app.call('jobs.status', { job_id: jobId, wait_seconds: waitSeconds }, { signal }),
    state: (body) => body.status,
    isTerminal: (body) => body.status === 'completed' || body.status === 'failed',
    isWaiting: (body) => body.status === 'pending',
    pollSeconds: (body) => taskPollSeconds(body, options.type),
    timeoutSeconds: options.timeoutSeconds,
    initial: options.initial,
  });
  return job;
}

/** A failed job's error, raised after its body has been printed. */
export function failIfFailed(job: TaskJob): void {
  if (job.status === 'failed') throw jobFailed(`Job ${job.job_id} failed: ${job.error ?? 'no reason given'}`);
}

/** A task job's fields as a person reads them: `error_message` repeats `error`, so it is left out. */
export function taskJobFields(job: TaskJob): Array<[string, unknown]> {
  return Object.entries(job).filter(([key]) => key !== 'success' && key !== 'error_message');
}
