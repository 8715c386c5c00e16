import type { Command } from 'commander';
import { ServiceError } from '../../core/errors.js';
import { ExitCode } from '../../core/exit-codes.js';
import { isTaskJobId } from '../../core/job-constants.js';
import type { TaskJob } from '../../core/schemas/jobs.js';
import type { CliApp } from '../app.js';
import { parseWholeNumber } from '../arguments.js';
import { CliError, jobFailed, usageError } from '../../core/client-errors.js';
import { withExamples } from '../help.js';
import { printRecord } from '../output.js';
import { saveServiceFile } from '../save-file.js';
import { saveText } from '../save-text.js';
import { clip } from '../../core/echo-text.js';
import { showAnalysisJob } from './analyze.js';
import { checkOutputTarget } from '../speech/output-target.js';
import { taskJobFields, watchTaskJob } from '../speech/watch-task-job.js';
import { parseTimeoutSeconds } from '../watch.js';

/** `tubekit job <job_id>`: a generation or analysis job, on the same wait machinery as channel jobs. */
export function registerJob(program: Command, app: CliApp): void {
  withExamples(
    program
      .command('job')
      .description('Show a generation or analysis job; --watch waits until it finishes')
      .argument('<job_id>', 'the job_id the submit printed')
      .option('--wait <seconds>', 'hold up to this many seconds for the job to finish (capped at 30)')
      .option('--watch', 'wait for the job to finish, showing progress on stderr')
      .option('--timeout <seconds>', 'with --watch: stop waiting after this long (exit 10)')
      .option('-o, --output <file>', 'once completed, save the audio (generation) or the analysis text to this file ("-" for stdout)')
      .option('--force', 'with -o: overwrite a file that already exists'),
    [
      'id=$(tubekit generate "Hello there." --voice espeak-en-us)   # queues; prints the job id',
      'tubekit job "$id" --watch',
      'tubekit job "$id" --watch -o speech.mp3 --force             # replaces speech.mp3 if it exists',
      'tubekit --json job "$id" | jq -r .audio_url',
      'id=$(tubekit analyze https://youtu.be/GHGuclERoWA --prompt "Summarize it" --json | jq -r .job_id)',
      'tubekit job "$id" --watch -o summary.txt            # an analysis job: prints or saves its text',
    ],
  ).action(async (jobId: string, flags: { wait?: string; watch?: boolean; timeout?: string; output?: string; force?: boolean }) => {
    jobId = jobId.trim();
    if (!jobId) throw usageError('Give the job id the submit printed.');
    // A number goes on to the service: pointToChannelJob tells a channel job's id from a wrong one.
    if (!isTaskJobId(jobId) && !/^\d+$/.test(jobId)) {
      throw usageError(
        `"${clip(jobId)}" is not a job id: generation and analysis jobs have UUIDs (like 3f1c2a9e-7b4d-4e2a-9c61-0d5b8e7f6a12).`,
        'Find a lost id with: tubekit jobs list',
      );
    }
    const timeoutSeconds = parseTimeoutSeconds(flags.timeout, Boolean(flags.watch));
    const waitSeconds = flags.wait === undefined ? 0 : parseWholeNumber(flags.wait, '--wait');
    const force = Boolean(flags.force);
    if (flags.output !== undefined) checkOutputTarget(app, flags.output, force);
    const body = await (flags.watch
      ? watchTaskJob(app, jobId, { timeoutSeconds, output: flags.output })
      : app.call('jobs.status', { job_id: jobId, wait_seconds: waitSeconds })
    ).catch((error: unknown) => pointToChannelJob(app, jobId, error));
    if (flags.output !== undefined) {
      await saveOutput(app, body, flags.output, force);
      if (flags.output === '-') return;
    }
    if (body.type === 'analysis') {
      showAnalysisJob(app, body, { saved: flags.output !== undefined });
      return;
    }
    await app.render(body, (job) => printRecord(app.io, taskJobFields(job)));
    if (body.status === 'failed') throw jobFailed(`Job ${body.job_id} failed: ${body.error ?? 'no error message'}`);
  });
}

/**
 * Channel jobs have their own ids (numbers) and command: a `job 3` that finds nothing says where
 * job 3 is, instead of a bare "Job not found".
 */
async function pointToChannelJob(app: CliApp, jobId: string, error: unknown): Promise<never> {
  if (!(error instanceof ServiceError) || error.status !== 404 || !/^\d+$/.test(jobId.trim())) throw error;
  const channelJob = await app.call('channels.processStatus', { job_id: Number(jobId), wait_seconds: 0 }).catch(() => undefined);
  if (channelJob) {
    throw new CliError(`Job ${jobId} is a channel job, not a generation or analysis job.`, ExitCode.notFound, `Show it with: tubekit process-channel status ${jobId}`, 'not_found');
  }
  throw new ServiceError({
    status: 404,
    code: error.code,
    message: error.message,
    hint: `Generation and analysis jobs have UUIDs; channel jobs are numbers, shown by \`tubekit process-channel status <id>\`. List yours with \`tubekit jobs list\`.`,
  });
}

/** `-o`: a generation job's audio, or an analysis job's text. */
async function saveOutput(app: CliApp, job: TaskJob, target: string, force: boolean): Promise<void> {
  const what = job.type === 'analysis' ? 'analysis text' : 'audio';
  if (job.status === 'failed') throw jobFailed(`Job ${job.job_id} failed: ${job.error ?? 'no error message'}`);
  if (job.status !== 'completed') {
    throw usageError(`Job ${job.job_id} is still ${job.status}; there is no ${what} yet.`, `Add --watch to wait for it: tubekit job ${job.job_id} --watch -o ${target}`);
  }
  if (job.type === 'analysis') {
    if (target === '-') app.io.out(job.analysis_text ?? '');
    else await saveText(target, job.analysis_text ?? '', force);
  } else {
    if (!job.audio_url) throw usageError(`Job ${job.job_id} has no audio to save (a ${job.type} job).`);
    await saveServiceFile(app, job.audio_url, target, { force });
  }
  if (target !== '-') app.io.note(`Saved ${target}`);
}
