/** `/jobs`: the user's recent jobs of every kind, filtered by kind and state, failed ones with their error. */
import { JOB_KINDS, JOB_STATES } from '../../../core/job-constants.js';
import { html } from '../html.js';
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
  return {
    title: 'Jobs',
    twin: href('GET /api/jobs', { kind, status, limit: LIMIT }),
    body: html`<form method="get" class="stack">${choice('kind', 'Kind', JOB_KINDS, kind)}${choice('status', 'State', JOB_STATES, status)}<button type="submit">Filter</button></form>
${jobs.length === 0 ? html`<p class="notice">No jobs${kind || status ? ' match these filters' : ' yet'}.</p>` : html`<div class="table-wrap"><table><caption class="skip">Your jobs</caption><thead><tr><th scope="col">Job</th>${sortHeader('Kind', 'kind', sort, link)}<th scope="col">About</th>${sortHeader('State', 'status', sort, link)}${sortHeader('Created', 'created', sort, link)}<th scope="col">Finished</th><th scope="col">Error</th></tr></thead><tbody>
${sorted.map((job) => html`<tr><td><code>${job.job_id}</code></td><td>${job.kind}${job.type !== job.kind ? ` (${job.type})` : ''}</td><td class="title">${job.subject}</td><td>${job.status}</td><td>${job.created_at}</td><td>${job.completed_at ?? ''}</td><td>${job.error ?? ''}</td></tr>`)}
</tbody></table></div><p class="twin">The newest ${LIMIT} jobs.</p>`}`,
  };
}
