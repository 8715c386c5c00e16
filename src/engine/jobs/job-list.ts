/**
 * `GET /api/jobs` (our extension): the caller's latest jobs of every kind, newest first, so a lost
 * job id can be found again. One row per job with what a person recognises it by (`subject`).
 */
import { JOB_KINDS, type JobKind } from '../../core/job-constants.js';
import type { JobListEntry } from '../../core/schemas/jobs.js';
import { isoTime } from '../clock.js';
import type { Handlers } from '../context.js';
import { failedJobFields, type JobRow } from './job-row.js';

/** The input fields each kind's submit stores that say what the job is about. */
interface SubjectFields {
  channel_input?: string;
  type?: string;
  title?: string;
  video_url?: string;
}

export function jobListEntry(row: JobRow): JobListEntry {
  const kind = row.kind as JobKind;
  const input = JSON.parse(row.input) as SubjectFields;
  const entry: JobListEntry = {
    job_id: row.public_id ?? row.id,
    kind,
    type: kind === 'channel' ? (input.type ?? kind) : kind,
    status: row.state as JobListEntry['status'],
    subject: (kind === 'channel' ? input.channel_input : kind === 'analysis' ? input.video_url : input.title) ?? '',
    created_at: isoTime(row.requested_at),
  };
  if (row.claimed_at !== null) entry.started_at = isoTime(row.claimed_at);
  if (row.state === 'completed' && row.finished_at !== null) entry.completed_at = isoTime(row.finished_at);
  if (row.state === 'failed') Object.assign(entry, failedJobFields(row.error));
  return entry;
}

export const jobListHandlers: Handlers = {
  async 'jobs.list'(request, input) {
    const kinds = input.kind ? [input.kind] : JOB_KINDS;
    const jobs = (await request.engine.jobs.queue.recentOfUser(request.user.userId, kinds, input.status, input.limit)).map(jobListEntry);
    return { success: true, jobs, count: jobs.length };
  },
};
