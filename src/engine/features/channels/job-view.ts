/**
 * Channel job rows as the API shows them, field by field as the spec's table says: `job_id` on
 * submit and `id` on poll; `claimed_at` once a worker took the job and `elapsed_seconds` only while
 * running; `completed_at`, `eligible` and `result` once completed; `error` (and `error_message`, the same text) only when failed;
 * `duration_seconds` (request to end, whole seconds) once either.
 */
import type { z } from 'zod';
import type { ChannelJob, ChannelJobState, processChannelOutput } from '../../../core/schemas/jobs.js';
import { isoTime } from '../../clock.js';
import { failedJobFields, type JobRow } from '../../jobs/job-row.js';
import type { ChannelJobInput, ChannelJobOutput } from './processor.js';

type SubmitBody = z.infer<typeof processChannelOutput>;

/** The fields every view of a channel job carries, whatever its state. */
function commonFields(row: JobRow) {
  const input = JSON.parse(row.input) as ChannelJobInput;
  return {
    status: row.state as ChannelJobState,
    type: input.type,
    channel_input: input.channel_input,
    resolved_channel_id: input.channel_id,
    requested_at: isoTime(row.requested_at),
  };
}

export function channelJobSubmitBody(row: JobRow, idempotent: boolean): SubmitBody {
  const body: SubmitBody = { success: true, job_id: row.id, ...commonFields(row) };
  if (idempotent) body.idempotent = true;
  return body;
}

export function channelJobBody(row: JobRow, now: number): ChannelJob {
  const body: ChannelJob = { success: true, id: row.id, ...commonFields(row) };
  if (row.claimed_at !== null) body.claimed_at = isoTime(row.claimed_at);
  if (row.state === 'running' && row.claimed_at !== null) {
    body.elapsed_seconds = Math.max(0, Math.floor((now - row.claimed_at) / 1000));
  }
  if ((row.state === 'completed' || row.state === 'failed') && row.finished_at !== null) {
    if (row.state === 'completed') body.completed_at = isoTime(row.finished_at);
    body.duration_seconds = Math.max(0, Math.round((row.finished_at - row.requested_at) / 1000));
  }
  if (row.state === 'completed' && row.result !== null) {
    const output = JSON.parse(row.result) as ChannelJobOutput;
    body.eligible = output.eligible;
    body.result = output.result;
  }
  if (row.state === 'failed') Object.assign(body, failedJobFields(row.error));
  return body;
}
