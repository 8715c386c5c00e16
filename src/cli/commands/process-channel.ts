import { Option, type Command } from 'commander';
import type { RouteOutput } from '../../core/routes.js';
import { isChannelId } from '../../core/channel-input.js';
import { CHANNEL_JOB_TYPES } from '../../core/job-constants.js';
import type { ChannelJob } from '../../core/schemas/jobs.js';
import type { CliApp } from '../app.js';
import { parseId, parseWholeNumber } from '../arguments.js';
import { jobFailed, usageError } from '../../core/client-errors.js';
import { withExamples } from '../help.js';
import { printRecord } from '../output.js';
import { clip } from '../../core/echo-text.js';
import { parseTimeoutSeconds, watchJob } from '../watch.js';

type SubmitBody = RouteOutput<'channels.process'>;
type JobBody = ChannelJob | SubmitBody;

interface WatchFlags {
  watch?: boolean;
  timeout?: string;
}

export function registerProcessChannel(program: Command, app: CliApp): void {
  const command = withExamples(
    program
      .command('process-channel')
      .description('Queue ingestion of one channel (a job), and follow it')
      .argument('<channel>', 'UC… id, @handle, channel URL, or a video URL of the channel')
      .addOption(new Option('--type <type>', 'what to ingest (required; no auto-detection)').choices(CHANNEL_JOB_TYPES))
      .option('--idempotency-key <key>', 'return the existing job for a key already used instead of queueing another')
      .option('--watch', 'wait for the job to finish, showing progress on stderr')
      .option('--timeout <seconds>', 'with --watch: stop waiting after this long (exit 10)'),
    [
      'tubekit process-channel @honestrunning --type longform --watch',
      'tubekit process-channel https://youtu.be/DgaCE_roV-w --type shorts --json | jq .job_id',
      'tubekit --json process-channel UC-G4LyTAzHi0Xaj33Fjszrg --type longform --idempotency-key nightly-$(date +%F) --watch --timeout 300',
    ],
  ).action(async (channel: string, flags: WatchFlags & { type?: string; idempotencyKey?: string }) => {
    if (!flags.type) throw usageError('--type is required: shorts or longform (there is no auto-detection).');
    if (!channel.trim()) throw usageError('Give a channel: a UC… id, an @handle, a channel URL or a video URL.');
    const timeoutSeconds = parseTimeoutSeconds(flags.timeout, Boolean(flags.watch));
    const submitted = await app.call('channels.process', {
      channel,
      type: flags.type as (typeof CHANNEL_JOB_TYPES)[number],
      ...(flags.idempotencyKey !== undefined ? { idempotency_key: flags.idempotencyKey } : {}),
    });
    if (submitted.idempotent) await warnIfKeyReusedOtherwise(app, submitted, channel, flags.type);
    if (!flags.watch) {
      await app.render(submitted, (body) => printRecord(app.io, jobRecord(body)));
      if (!app.json) app.io.note(`Follow it with: tubekit process-channel status ${submitted.job_id} --watch`);
      return;
    }
    const final = await watchChannelJob(app, submitted.job_id, timeoutSeconds, submitted);
    await finish(app, final);
  });

  withExamples(
    command
      .command('status')
      .description('Show a channel job; --wait holds until it finishes (up to 30 s), --watch until done')
      .argument('<job_id>', 'the job_id the submit printed')
      .option('--wait <seconds>', 'hold up to this many seconds for the job to finish (capped at 30)')
      .option('--watch', 'wait for the job to finish, showing progress on stderr')
      .option('--timeout <seconds>', 'with --watch: stop waiting after this long (exit 10)'),
    ['tubekit process-channel status 1', 'tubekit process-channel status 1 --watch --timeout 120', 'tubekit process-channel status 1 --wait 30 --json'],
  ).action(async (jobIdText: string, _local: unknown, self: Command) => {
    const flags = self.optsWithGlobals<WatchFlags & { wait?: string }>();
    if (!/^\s*\d+\s*$/.test(jobIdText) && jobIdText.trim() !== '') {
      throw usageError(`Job id must be a positive whole number (a channel job's), not "${clip(jobIdText)}".`, `Generation and analysis jobs (UUIDs) are shown by: tubekit job ${clip(jobIdText)}`);
    }
    const jobId = parseId(jobIdText, 'Job id');
    const timeoutSeconds = parseTimeoutSeconds(flags.timeout, Boolean(flags.watch));
    const waitSeconds = flags.wait === undefined ? 0 : parseWholeNumber(flags.wait, '--wait');
    const body = flags.watch
      ? await watchChannelJob(app, jobId, timeoutSeconds)
      : await app.call('channels.processStatus', { job_id: jobId, wait_seconds: waitSeconds });
    await finish(app, body);
  });
}

/**
 * A reused idempotency key returns the job first made with it, whatever this run asked for (the
 * spec's rule). When that job is for another channel or type, a script would otherwise take it for
 * the one it asked for — so say so.
 */
async function warnIfKeyReusedOtherwise(app: CliApp, job: SubmitBody, channel: string, type: string): Promise<void> {
  const asked = channel.trim();
  let sameChannel: boolean | undefined = asked === job.channel_input || asked === job.resolved_channel_id;
  if (!sameChannel) {
    sameChannel = isChannelId(asked)
      ? false
      : await app.call('channels.resolve', { input: asked }).then(
          (resolved) => resolved.channel_id === job.resolved_channel_id,
          () => undefined, // e.g. a video URL, which only process-channel resolves
        );
  }
  if (sameChannel && job.type === type) return;
  const first = `${clip(job.channel_input)} (${job.type})`;
  const now = `${clip(asked)} (${type})`;
  const what = sameChannel === undefined && job.type === type ? `; tubekit could not check whether ${clip(asked)} is the same channel` : '';
  app.io.error(
    app.io.yellow(
      `warning: the idempotency key was first used for ${first}; this run asked for ${now}${what}. ` +
        `The service returned that earlier job ${job.job_id} and queued nothing. Use a new key for a different channel or type.`,
    ),
  );
}

function watchChannelJob(app: CliApp, jobId: number, timeoutSeconds: number | undefined, initial?: SubmitBody) {
  return watchJob<JobBody>({
    io: app.io,
    label: `Job ${jobId}`,
    resumeCommand: `tubekit process-channel status ${jobId} --watch`,
    timeoutSeconds,
    initial,
    poll: (waitSeconds, signal) => app.call('channels.processStatus', { job_id: jobId, wait_seconds: waitSeconds }, { signal }),
    state: (body) => body.status,
    isTerminal: (body) => body.status === 'completed' || body.status === 'failed',
    isWaiting: (body) => body.status === 'queued',
    // Channel jobs take 30 s to 2 min (the spec); a status every 2 s where the server does not hold.
    pollSeconds: () => 2,
  });
}

/** Prints the final body; a failed job then ends the command with exit 1 and its error. */
async function finish(app: CliApp, body: JobBody): Promise<void> {
  await app.render(body, (shown) => printRecord(app.io, jobRecord(shown)));
  if (body.status === 'failed') {
    const id = 'id' in body ? body.id : body.job_id;
    throw jobFailed(`Job ${id} failed: ${('error' in body && body.error) || 'no error message'}`);
  }
}

interface ResultSummary {
  channel?: { title?: string; handle?: string };
  statistics?: { subscribers?: number };
  videos?: unknown[];
  shorts?: unknown[];
  ineligible_reasons?: string[];
}

/** The fields a person reads, in the order the job moves through them. */
function jobRecord(body: JobBody): Array<[string, unknown]> {
  const job = body as Partial<ChannelJob> & { job_id?: number; idempotent?: boolean };
  const result = job.result as ResultSummary | undefined;
  return [
    ['id', job.id ?? job.job_id],
    ['status', job.status],
    ['type', job.type],
    ['channel_input', job.channel_input],
    ['resolved_channel_id', job.resolved_channel_id],
    ['idempotent', job.idempotent],
    ['requested_at', job.requested_at],
    ['claimed_at', job.claimed_at],
    ['elapsed_seconds', job.elapsed_seconds],
    ['completed_at', job.completed_at],
    ['duration_seconds', job.duration_seconds],
    ['eligible', job.eligible],
    ['title', result?.channel?.title],
    ['handle', result?.channel?.handle],
    ['subscribers', result?.statistics?.subscribers],
    ['recent_videos', result?.videos?.length],
    ['recent_shorts', result?.shorts?.length],
    ['ineligible_reasons', result?.ineligible_reasons?.length ? result.ineligible_reasons.join(' ') : undefined],
    ['error', job.error],
  ];
}
