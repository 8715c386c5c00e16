/**
 * `GET /api/job-status/:job_id` for the task family (generation, analysis). One function maps a
 * row to the body: the queue's own fields here, and whatever the kind's processor adds through
 * its `describe(job)` (audio_url, transcript_url, analysis_text, …).
 */
import { notFound } from '../../core/errors.js';
import type { TaskJob } from '../../core/schemas/jobs.js';
import { isoTime } from '../clock.js';
import type { Handlers, RequestContext } from '../context.js';
import { failedJobFields, toJob, type JobRow } from './job-row.js';
import { jobProcessor } from './registry.js';

export async function taskJobBody(row: JobRow, request: RequestContext): Promise<TaskJob> {
  const body = {
    success: true,
    job_id: row.public_id ?? String(row.id),
    type: row.kind,
    status: row.state,
    created_at: isoTime(row.requested_at),
  } as TaskJob;
  if (row.claimed_at !== null) body.started_at = isoTime(row.claimed_at);
  if (row.state === 'completed' && row.finished_at !== null) body.completed_at = isoTime(row.finished_at);
  if (row.state === 'failed') Object.assign(body, failedJobFields(row.error));
  const extra = await jobProcessor(row.kind)?.describe?.(toJob(row), request);
  return extra ? { ...body, ...extra } : body;
}

const RATE_WINDOW_MS = 60_000;

export const taskJobHandlers: Handlers = {
  async 'jobs.status'(request, input) {
    const { engine, user, limits } = request;
    // Counted on arrival, before any hold: a long-poll is one call however long it waits.
    const perMinute = limits.jobStatusPerMinute;
    await engine.rates.take(user.userId, 'job-status', perMinute, RATE_WINDOW_MS, `${perMinute} requests/min`, {
      hint: 'Poll every few seconds, or hold the request with ?wait_seconds=30 (it answers as soon as the job ends).',
    });
    const load = async () => {
      const row = await engine.jobs.queue.getByPublicId(input.job_id);
      if (!row || row.user_id !== user.userId || jobProcessor(row.kind)?.family !== 'task') {
        throw notFound('Job not found. Use the job_id the submit returned, with the same API key.');
      }
      return row;
    };
    const row = await engine.jobs.wait(load, input.wait_seconds, request.signal);
    return taskJobBody(row, request);
  },
};
