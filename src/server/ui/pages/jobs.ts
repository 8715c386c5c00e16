/**
 * `/jobs`: the jobs running now with what their status routes say of their progress, then the
 * user's recent jobs of every kind, filtered by kind and state, failed ones with their error.
 */
import { JOB_KINDS, JOB_STATES } from '../../../core/job-constants.js';
import type { JobListEntry } from '../../../core/schemas/jobs.js';
import { html, type SafeHtml } from '../html.js';
import type { PageView } from '../layout.js';
import type { PageContext } from '../page-context.js';
import { href, readSort, sortHeader, sortRows, type SortState } from '../table.js';

const FIELDS = ['created', 'status', 'kind'] as const;
type Field = (typeof FIELDS)[number];
const LIMIT = 100;

export async function jobsPage(context: PageContext): Promise<PageView> {
  const kind = JOB_KINDS.find((name) => name === context.query.kind);
  const status = JOB_STATES.find((name) => name === context.query.status);
  const { jobs } = await context.call('jobs.list', { kind, status, limit: LIMIT });
  const sort = readSort<Field>(context.query, FIELDS, { field: 'created', dir: 'desc' });
  const sorted = sortRows(jobs, sort, (job, field) => field === 'created' ? job.created_at : field === 'status' ? job.status : job.kind);
  const link = (s: SortState<Field>) => href('/jobs', { kind, status, sort: s.field, dir: s.dir });
  const choice = (name: string, label: string, options: readonly string[], current: string | undefined) =>
    html`<label for="jobs-${name}">${label}<select id="jobs-${name}" name="${name}"><option value="">any</option>${options.map((option) => html`<option value="${option}"${option === current ? html` selected` : ''}>${option}</option>`)}</select></label>`;
  const running = await runningJobs(context);
  return {
    title: 'Jobs',
    twin: href('GET /api/jobs', { kind, status, limit: LIMIT }),
    body: html`${running}<h2>Recent jobs</h2><form method="get" class="stack">${choice('kind', 'Kind', JOB_KINDS, kind)}${choice('status', 'State', JOB_STATES, status)}<button type="submit">Filter</button></form>
${jobs.length === 0 ? html`<p class="notice">No jobs${kind || status ? ' match these filters' : ' yet'}.</p>` : html`<div class="table-wrap"><table><caption class="skip">Your jobs</caption><thead><tr><th scope="col">Job</th>${sortHeader('Kind', 'kind', sort, link)}<th scope="col">About</th>${sortHeader('State', 'status', sort, link)}${sortHeader('Created', 'created', sort, link)}<th scope="col">Finished</th><th scope="col">Error</th></tr></thead><tbody>
${sorted.map((job) => html`<tr><td><code>${job.job_id}</code></td><td>${job.kind}${job.type !== job.kind ? ` (${job.type})` : ''}</td><td class="title">${job.subject}</td><td>${job.status}</td><td>${job.created_at}</td><td>${job.completed_at ?? ''}</td><td>${job.error ?? ''}</td></tr>`)}
</tbody></table></div><p class="twin">The newest ${LIMIT} jobs.</p>`}`,
  };
}

/** What a running job's own status route tells of its progress: its step (analysis), its time so far (channel jobs). */
interface Progress {
  job: JobListEntry;
  step?: string;
  elapsedSeconds?: number;
}

/** Running jobs of both families, each with its status route's progress (no fraction is known: the bar is indeterminate). */
async function runningJobs(context: PageContext): Promise<SafeHtml> {
  const [channel, task] = await Promise.all([
    context.call('jobs.list', { status: 'running', limit: LIMIT }),
    context.call('jobs.list', { status: 'processing', limit: LIMIT }),
  ]);
  const jobs = [...channel.jobs, ...task.jobs].sort((a, b) => (a.started_at ?? a.created_at).localeCompare(b.started_at ?? b.created_at));
  const progress = await Promise.all(jobs.map((job) => progressOf(context, job)));
  const twin = 'GET /api/jobs?status=running · GET /api/jobs?status=processing · GET /api/process-channel/<job_id> · GET /api/job-status/<job_id>';
  if (progress.length === 0) return html`<h2>Running now</h2><p>No job is running. <a href="/jobs">Refresh</a></p><p class="twin">JSON twin: <code>${twin}</code></p>`;
  return html`<h2>Running now</h2><ul class="running">${progress.map(({ job, step, elapsedSeconds }) => {
    const label = `Job ${job.job_id} in progress`;
    return html`<li id="running-${String(job.job_id)}"><p><code>${job.job_id}</code> ${job.kind}${job.type !== job.kind ? ` (${job.type})` : ''}: <span class="title">${job.subject}</span></p>
<progress aria-label="${label}"></progress> <span class="step">${step ?? 'working'}${elapsedSeconds !== undefined ? html` · <span class="elapsed">${elapsedSeconds}</span> s so far` : ''}${job.started_at ? ` · started ${job.started_at}` : ''}</span></li>`;
  })}</ul><p><a href="/jobs">Refresh</a> to see how far they got.</p><p class="twin">JSON twin: <code>${twin}</code></p>`;
}

async function progressOf(context: PageContext, job: JobListEntry): Promise<Progress> {
  try {
    if (job.kind === 'channel') {
      const status = await context.call('channels.processStatus', { job_id: job.job_id, wait_seconds: 0 });
      return { job, elapsedSeconds: status.elapsed_seconds };
    }
    const status = await context.call('jobs.status', { job_id: String(job.job_id), wait_seconds: 0 });
    return { job, step: status.status_detail_message };
  } catch {
    // A job that finished between the list and its status: shown without its progress.
    return { job };
  }
}
