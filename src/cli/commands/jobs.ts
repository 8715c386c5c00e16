import { Option, type Command } from 'commander';
import { JOB_KINDS, JOB_LIST_MAX, JOB_STATES } from '../../core/job-constants.js';
import type { JobListEntry } from '../../core/schemas/jobs.js';
import type { CliApp } from '../app.js';
import { parseWholeNumber } from '../arguments.js';
import { withExamples } from '../help.js';
import { printTable, type Column } from '../output.js';

const jobColumns: Column<JobListEntry>[] = [
  { header: 'ID', value: (job) => job.job_id },
  { header: 'Kind', value: (job) => job.kind },
  { header: 'Type', value: (job) => job.type },
  { header: 'Status', value: (job) => job.status },
  { header: 'Created', value: (job) => job.created_at },
  { header: 'Subject', value: (job) => job.subject },
];

/**
 * `tubekit jobs list`: the caller's recent jobs of every kind (channel, generation, analysis),
 * newest first, through `GET /api/jobs` (our extension), so a lost job id can be found again.
 */
export function registerJobs(program: Command, app: CliApp): void {
  const jobs = withExamples(program.command('jobs').description('Your recent jobs of every kind (channel, generation, analysis)'), [
    'tubekit jobs list',
    'tubekit jobs list --state failed',
  ]);
  withExamples(
    jobs
      .command('list')
      .description('Your recent jobs, newest first; filter by --kind and --state')
      .addOption(new Option('--kind <kind>', 'only jobs of this kind').choices(JOB_KINDS))
      .addOption(new Option('--state <state>', 'only jobs in this state').choices(JOB_STATES))
      .option('--limit <n>', `how many (1 to ${JOB_LIST_MAX}; default 20)`),
    [
      'tubekit jobs list',
      'tubekit jobs list --kind generation --state completed --limit 5',
      'tubekit jobs list --state failed --json | jq -r \'.jobs[] | "\\(.job_id) \\(.error)"\'',
      'tubekit job "$(tubekit jobs list --kind analysis --limit 1 | cut -f1)" --watch   # the latest analysis',
    ],
  ).action(async (options: { kind?: JobListEntry['kind']; state?: JobListEntry['status']; limit?: string }) => {
    const limit = options.limit === undefined ? undefined : parseWholeNumber(options.limit, '--limit', { min: 1, max: JOB_LIST_MAX });
    const body = await app.call('jobs.list', { kind: options.kind, status: options.state, limit });
    await app.render(body, (shown) => printTable(app.io, shown.jobs, jobColumns));
  });
}
