/**
 * `/media`: generated audio with a player and its SRT transcript, from the user's completed
 * generation jobs; and downloads: a form making one through the download route, whose answer's
 * link is shown (the service keeps no list of a user's downloads, so a link is shown once, here).
 */
import { DOWNLOAD_FORMATS, DOWNLOAD_QUALITIES } from '../../../core/schemas/media.js';
import { ServiceError } from '../../../core/errors.js';
import type { RouteOutput } from '../../../core/routes.js';
import { html, type SafeHtml } from '../html.js';
import type { PageView } from '../layout.js';
import { csrfField, type ActionHandler, type PageContext } from '../page-context.js';

const LIMIT = 20;

interface DownloadOutcome {
  values: Record<string, unknown>;
  done?: RouteOutput<'download'>;
  error?: ServiceError;
}

export async function mediaPage(context: PageContext, download?: DownloadOutcome): Promise<PageView> {
  const { jobs } = await context.call('jobs.list', { kind: 'generation', status: 'completed', limit: LIMIT });
  const details = await Promise.all(jobs.map((job) => context.call('jobs.status', { job_id: String(job.job_id) })));
  return {
    title: 'Media',
    status: download?.error?.status,
    twin: `GET /api/jobs?kind=generation&status=completed&limit=${LIMIT} · GET /api/job-status/<job_id> · POST /api/download-video`,
    body: html`<h2>Generated audio</h2>${details.length === 0
      ? html`<p class="notice">No generated audio yet. Make some with <code>tubekit generate "Hello" --voice &lt;voice_id&gt;</code>.</p>`
      : html`<ul>${details.map((job) => html`<li><h3>${job.title ?? job.job_id}</h3><p>${job.completed_at ?? ''}${job.audio_duration_seconds !== undefined ? ` · ${job.audio_duration_seconds.toFixed(1)} s` : ''}</p>
${job.audio_url ? html`<audio controls preload="none" src="${job.audio_url}" aria-label="Audio of ${job.title ?? job.job_id}"></audio> <a href="${job.audio_url}">Download the audio</a>` : ''}
${job.transcript_url ? html` · <a href="${job.transcript_url}">Transcript (SRT)</a>` : ''}</li>`)}</ul>`}
<h2>Downloads</h2>${downloadSection(context, download)}`,
  };
}

function downloadSection(context: PageContext, download?: DownloadOutcome): SafeHtml {
  const values = download?.values ?? {};
  const chosen = (name: string, fallback: string) => (typeof values[name] === 'string' ? values[name] : fallback);
  const select = (name: string, label: string, options: readonly string[], fallback: string) =>
    html`<label for="download-${name}">${label}<select id="download-${name}" name="${name}">${options.map((option) => html`<option value="${option}"${option === chosen(name, fallback) ? html` selected` : ''}>${option}</option>`)}</select></label>`;
  const done = download?.done;
  const result = done
    ? html`<div class="download-result" role="status"><p><a href="${done.download_url}" rel="noreferrer">${done.title}</a> · ${done.format}${done.format === 'video' ? ` ${done.quality}p` : ''} · ${(done.size_bytes / 1024).toFixed(0)} KB${done.cached ? ' · from the cache' : ''}</p>${done.quality_note ? html`<p>${done.quality_note}</p>` : ''}<p>The link is shown here once: the service keeps no list of your downloads.</p></div>`
    : '';
  return html`${result}<form method="post" action="/media" class="stack" aria-label="Download a video">${csrfField(context)}
${download?.error ? html`<p class="error" role="alert">${download.error.message}${download.error.hint ? ` ${download.error.hint}` : ''}</p>` : ''}
<label for="download-video_url">Video URL or id<input id="download-video_url" name="video_url" required maxlength="2000" value="${typeof values.video_url === 'string' ? values.video_url : ''}"></label>
${select('format', 'Format', DOWNLOAD_FORMATS, 'video')}${select('quality', 'Quality', DOWNLOAD_QUALITIES, '720p')}
<button type="submit" class="primary">Download</button></form>
<p>Each download counts toward your plan's hourly download cap, as through the API.</p>`;
}

/** The download form: the route's answer (its link) or its refusal, shown on the media page. */
export const downloadVideo: ActionHandler = async (context) => {
  const { form } = context;
  const values = { video_url: form.video_url, format: form.format, quality: form.quality };
  try {
    return mediaPage(context, { values, done: await context.call('download', values) });
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return mediaPage(context, { values, error });
  }
};
