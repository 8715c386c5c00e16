/** `/terminated`: the terminated-channel search with its sorts, paged by the route itself. */
import { TERMINATED_SORTS } from '../../../core/schemas/research.js';
import { count } from '../format.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';
import type { PageContext } from '../page-context.js';
import { href, pager, readPage } from '../table.js';

const PER_PAGE = 20;

export async function terminatedPage(context: PageContext): Promise<PageView> {
  const q = typeof context.query.q === 'string' ? context.query.q.trim() : '';
  const sort = TERMINATED_SORTS.find((name) => name === context.query.sort) ?? 'date_desc';
  const form = html`<form method="get" class="stack" role="search"><label for="q">Keywords<input id="q" name="q" required value="${q}"></label>
<label for="sort">Sort<select id="sort" name="sort">${TERMINATED_SORTS.map((name) => html`<option value="${name}"${name === sort ? html` selected` : ''}>${name.replace('_', ' ')}</option>`)}</select></label><button type="submit">Search</button></form>`;
  if (!q) return { title: 'Terminated channels', twin: 'GET /api/terminated-channels?q=<keywords>', body: form };
  const page = readPage(context.query);
  const result = await context.call('terminated.search', { q, sort, page, per_page: PER_PAGE });
  const link = (p: number) => href('/terminated', { q, sort, page: p });
  return {
    title: 'Terminated channels',
    twin: href('GET /api/terminated-channels', { q, sort, page, per_page: PER_PAGE }),
    body: html`${form}<p>${result.total.toLocaleString('en-US')} channels match.</p>
${result.channels.length === 0 ? '' : html`<div class="table-wrap"><table><caption class="skip">Terminated channels found</caption><thead><tr><th scope="col">Channel</th><th scope="col" class="num">Subscribers</th><th scope="col" class="num">Views</th><th scope="col" class="num">Videos</th><th scope="col">Language</th><th scope="col">Terminated</th></tr></thead><tbody>
${result.channels.map((channel) => html`<tr><td class="title">${channel.channel_title} <code>${channel.channel_id}</code></td><td class="num">${count(channel.subscriber_count)}</td><td class="num">${count(channel.view_count)}</td><td class="num">${count(channel.total_videos)}</td><td>${channel.primary_language ?? ''}</td><td>${channel.terminated_date}</td></tr>`)}
</tbody></table></div>`}${pager(result.page, result.total_pages, link)}`,
  };
}
