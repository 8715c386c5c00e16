/** `/folders/<id>`: a folder's channels with their 24h/48h deltas and a 14-day sparkline each. */
import type { FolderChannel } from '../../../core/schemas/workspace.js';
import { count, delta } from '../format.js';
import { html } from '../html.js';
import type { PageView } from '../layout.js';
import type { PageContext } from '../page-context.js';
import { sparkline } from '../sparkline.js';
import { href, pager, readPage, readSort, sortHeader, sortRows, type SortState } from '../table.js';
import { PAGE_SIZE } from './folders.js';

const FIELDS = ['title', 'subscribers', 'total_views', 'subs_24h', 'subs_48h', 'views_24h', 'views_48h', 'saved_at'] as const;
type Field = (typeof FIELDS)[number];
/** Days of the sparkline. */
export const SPARK_DAYS = 14;

export async function folderPage(context: PageContext): Promise<PageView> {
  const id = context.params.id!;
  // The folder's channels first: another user's folder is a 404 here exactly as in the API.
  const { channels } = await context.call('folders.channels', { id });
  const folder = (await context.call('folders.list', {})).folders.find((entry) => String(entry.id) === id);
  const sort = readSort<Field>(context.query, FIELDS, { field: 'saved_at', dir: 'desc' });
  const sorted = sortRows(channels, sort, (channel, field) => field === 'title' ? channel.title.toLowerCase() : channel[field]);
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const page = Math.min(readPage(context.query), pages);
  const rows = sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const histories = await Promise.all(rows.map((channel) => context.call('channels.history', { channel_id: channel.channel_id, days: SPARK_DAYS }).catch(() => null)));
  const link = (s: SortState<Field>, p = 1) => href(`/folders/${id}`, { sort: s.field, dir: s.dir, page: p > 1 ? p : undefined });
  const header = (label: string, field: Field) => sortHeader(label, field, sort, link, field !== 'title' && field !== 'saved_at');
  const row = (channel: FolderChannel, i: number) => {
    const history = histories[i];
    return html`<tr><td class="title"><a href="/channels/${channel.channel_id}">${channel.title}</a>${channel.handle ? html` <span class="unknown">${channel.handle}</span>` : ''}</td>
<td class="num">${count(channel.subscribers)}</td><td class="num">${count(channel.total_views)}</td>
<td class="num">${delta(channel.subs_24h)}</td><td class="num">${delta(channel.subs_48h)}</td><td class="num">${delta(channel.views_24h)}</td><td class="num">${delta(channel.views_48h)}</td>
<td>${history ? sparkline(`Subscribers of ${channel.title}`, history.points.map((point) => point.subscribers)) : html`<span class="unknown">unknown</span>`}</td><td>${channel.saved_at}</td></tr>`;
  };
  return {
    title: folder ? `Folder: ${folder.name}` : `Folder ${id}`,
    twin: `GET /api/folders/${id}/channels`,
    body: channels.length === 0
      ? html`<p class="notice">No channels in this folder. Save some with <code>tubekit saved add &lt;channel&gt; --folder ${id}</code>.</p>`
      : html`<div class="table-wrap"><table><caption class="skip">Channels of the folder</caption><thead><tr>
${header('Channel', 'title')}${header('Subscribers', 'subscribers')}${header('Views', 'total_views')}${header('Subs 24h', 'subs_24h')}${header('Subs 48h', 'subs_48h')}${header('Views 24h', 'views_24h')}${header('Views 48h', 'views_48h')}<th scope="col">Subscribers, ${SPARK_DAYS} days</th>${header('Saved', 'saved_at')}
</tr></thead><tbody>${rows.map(row)}</tbody></table></div>
${pager(page, pages, (p) => link(sort, p))}`,
  };
}
