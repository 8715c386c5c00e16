/**
 * `/channels/<id>`: subscribers, views and videos over time from the index, its recent videos, the
 * check verdicts already stored for it (none is run from here) and its collab partners.
 */
import { HISTORY_METRICS, type ChannelHistory } from '../../../core/schemas/history.js';
import { ServiceError } from '../../../core/errors.js';
import { lineChart } from '../chart.js';
import { count } from '../format.js';
import { href } from '../table.js';
import { html, type SafeHtml } from '../html.js';
import type { PageView } from '../layout.js';
import type { PageContext } from '../page-context.js';

export const CHANNEL_DAY_CHOICES = [7, 30, 90, 365] as const;
const LABELS = { subscribers: 'Subscribers', views: 'Views', videos: 'Videos' } as const;

export async function channelPage(context: PageContext): Promise<PageView> {
  const channelId = context.params.id!;
  const days = CHANNEL_DAY_CHOICES.find((choice) => String(choice) === context.query.days) ?? 30;
  const history = await context.call('channels.history', { channel_id: channelId, days });
  const latest = (metric: (typeof HISTORY_METRICS)[number]) => [...history.points].reverse().find((point) => point[metric] !== null)?.[metric] ?? null;
  return {
    title: history.title,
    twin: `GET /api/channels/${history.channel_id}/history?days=${days}`,
    body: html`<p>${history.handle ?? ''} <code>${history.channel_id}</code>${history.watched_since ? html` · watched since ${history.watched_since}; figures as of ${history.figures_as_of}` : ''}</p>
${history.description ? html`<p class="description">${history.description}</p>` : ''}
<dl class="figures">${HISTORY_METRICS.map((metric) => html`<div><dt>${LABELS[metric]}</dt><dd>${count(latest(metric))}</dd></div>`)}</dl>
<form method="get" class="stack"><label for="days">Period<select id="days" name="days">${CHANNEL_DAY_CHOICES.map((choice) => html`<option value="${choice}"${choice === days ? html` selected` : ''}>${choice} days</option>`)}</select></label><button type="submit">Show</button></form>
${HISTORY_METRICS.map((metric) => lineChart(`chart-${metric}`, `${LABELS[metric]}, last ${days} days`, history.points.map((point) => ({ date: point.date, value: point[metric] }))))}
${historyTable(history)}
<h2>Recent videos</h2>${await recentVideos(context, history.channel_id, days)}
<h2>Checks</h2>${await storedChecks(context, history.channel_id)}
<h2>Collab partners</h2>${await partners(context, history.channel_id)}`,
  };
}

function historyTable(history: ChannelHistory): SafeHtml {
  return html`<details><summary>The figures as a table</summary><div class="table-wrap"><table><thead><tr><th scope="col">Day</th><th scope="col" class="num">Subscribers</th><th scope="col" class="num">Views</th><th scope="col" class="num">Videos</th></tr></thead>
<tbody>${history.points.map((point) => html`<tr><td>${point.date}</td><td class="num">${count(point.subscribers)}</td><td class="num">${count(point.views)}</td><td class="num">${count(point.videos)}</td></tr>`)}</tbody></table></div></details>`;
}

/** Partners from the collabs route; its refusal is said in words, not shown as no partners. */
async function partners(context: PageContext, channelId: string): Promise<SafeHtml> {
  try {
    const view = await context.call('collabs.channel', { channel_id: channelId, since_days: 365, limit: 10 });
    const list = view.partners;
    if (list.length === 0) return html`<p>No collab partners in the last 365 days. <span class="twin">JSON twin: <code>GET /api/collabs/channel/${channelId}</code></span></p>`;
    return html`<ul>${list.map((partner) => html`<li><a href="/channels/${partner.channel_id}">${partner.title}</a> · ${partner.joint_videos} joint videos, the last ${partner.last_joint_at}</li>`)}</ul><p class="twin">JSON twin: <code>GET /api/collabs/channel/${channelId}</code></p>`;
  } catch (error) {
    if (error instanceof ServiceError) return html`<p class="notice">Collabs could not be shown: ${error.message}</p>`;
    throw error;
  }
}

const VIDEO_SORTS = ['newest', 'views'] as const;
const VIDEOS_SHOWN = 10;

/** The index's recent videos, newest first or most viewed, sorted by the route (the link carries the choice). */
async function recentVideos(context: PageContext, channelId: string, days: number): Promise<SafeHtml> {
  const sort = VIDEO_SORTS.find((choice) => choice === context.query.videos) ?? 'newest';
  const twin = `GET /api/channels/${channelId}/videos?limit=${VIDEOS_SHOWN}&sort=${sort}`;
  try {
    const list = await context.call('channels.videos', { channel_id: channelId, limit: VIDEOS_SHOWN, sort });
    const choice = (value: (typeof VIDEO_SORTS)[number], label: string) =>
      value === sort ? html`<strong aria-current="true">${label}</strong>` : html`<a href="${href(`/channels/${channelId}`, { days, videos: value })}#recent-videos">${label}</a>`;
    const table = list.videos.length === 0
      ? html`<p>The index lists no videos of this channel.</p>`
      : html`<div class="table-wrap"><table id="recent-videos"><caption class="skip">Recent videos</caption><thead><tr><th scope="col">Video</th><th scope="col">Kind</th><th scope="col">Published</th><th scope="col" class="num">Views</th></tr></thead>
<tbody>${list.videos.map((video) => html`<tr><td class="title"><a href="https://www.youtube.com/watch?v=${video.video_id}" rel="noreferrer">${video.title ?? video.video_id}</a></td><td>${video.kind === 'short' ? 'short' : 'long'}</td><td>${video.published_at.slice(0, 10)}</td><td class="num">${count(video.views)}</td></tr>`)}</tbody></table></div>`;
    return html`<p class="stack">Sort: ${choice('newest', 'newest')} · ${choice('views', `most viewed of the newest ${list.ranked}`)}</p>${table}<p class="twin">JSON twin: <code>${twin}</code></p>`;
  } catch (error) {
    if (error instanceof ServiceError) return html`<p class="notice">Recent videos could not be shown: ${error.message}</p>`;
    throw error;
  }
}

/** The verdicts the checks stored for the channel; a check never run is said so, never shown as a verdict. */
async function storedChecks(context: PageContext, channelId: string): Promise<SafeHtml> {
  try {
    const checks = await context.call('channels.checks', { channel_id: channelId });
    const never = (command: string) => html`<td>not checked yet</td><td>run <code>${command}</code></td>`;
    const ads = checks.ads
      ? html`<td>${checks.ads.monetized === null ? 'unknown' : checks.ads.monetized ? 'monetized' : 'not monetized'}</td><td>${checks.ads.reason} (checked ${checks.ads.checked_at})</td>`
      : never(`tubekit monetized ${channelId}`);
    const summary = checks.external ? (typeof checks.external.result.summary === 'string' ? checks.external.result.summary : 'no summary') : undefined;
    const external = checks.external ? html`<td>${summary}</td><td>classified ${checks.external.classified_at}</td>` : never(`tubekit monetized external ${channelId}`);
    const network = checks.network
      ? html`<td>${checks.network.status === 'managed' ? html`managed${checks.network.owner ? html` by ${checks.network.owner.name ?? checks.network.owner.oid}` : ''}` : 'not managed'}</td><td>${checks.network.source === 'precheck' ? 'pre-checked' : 'checked live'} ${checks.network.checked_at}</td>`
      : never(`tubekit cms ${channelId}`);
    return html`<div class="table-wrap"><table id="stored-checks"><caption class="skip">Stored check verdicts</caption><thead><tr><th scope="col">Check</th><th scope="col">Verdict</th><th scope="col">Why, and when</th></tr></thead>
<tbody><tr><th scope="row">Ads</th>${ads}</tr><tr><th scope="row">External monetization</th>${external}</tr><tr><th scope="row">Managed network</th>${network}</tr></tbody></table></div>
<p class="twin">Stored verdicts only: nothing is checked from this page. JSON twin: <code>GET /api/channels/${channelId}/checks</code></p>`;
  } catch (error) {
    if (error instanceof ServiceError) return html`<p class="notice">Checks could not be shown: ${error.message}</p>`;
    throw error;
  }
}
