/** `/channels/<id>`: subscribers, views and videos over time from the index, and the channel's collab partners. */
import { HISTORY_METRICS, type ChannelHistory } from '../../../core/schemas/history.js';
import { ServiceError } from '../../../core/errors.js';
import { lineChart } from '../chart.js';
import { count } from '../format.js';
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
