/** `/media`: generated audio with a player and its SRT transcript, from the user's completed generation jobs. */
import { html } from '../html.js';
import type { PageView } from '../layout.js';
import type { PageContext } from '../page-context.js';

const LIMIT = 20;

export async function mediaPage(context: PageContext): Promise<PageView> {
  const { jobs } = await context.call('jobs.list', { kind: 'generation', status: 'completed', limit: LIMIT });
  const details = await Promise.all(jobs.map((job) => context.call('jobs.status', { job_id: String(job.job_id) })));
  return {
    title: 'Media',
    twin: `GET /api/jobs?kind=generation&status=completed&limit=${LIMIT} · GET /api/job-status/<job_id>`,
    body: details.length === 0
      ? html`<p class="notice">No generated audio yet. Make some with <code>tubekit generate "Hello" --voice &lt;voice_id&gt;</code>.</p>`
      : html`<ul>${details.map((job) => html`<li><h2>${job.title ?? job.job_id}</h2><p>${job.completed_at ?? ''}${job.audio_duration_seconds !== undefined ? ` · ${job.audio_duration_seconds.toFixed(1)} s` : ''}</p>
${job.audio_url ? html`<audio controls preload="none" src="${job.audio_url}" aria-label="Audio of ${job.title ?? job.job_id}"></audio> <a href="${job.audio_url}">Download the audio</a>` : ''}
${job.transcript_url ? html` · <a href="${job.transcript_url}">Transcript (SRT)</a>` : ''}</li>`)}</ul>`,
  };
}
