/** `/folders`: the user's folders, sorted and paged on the server. */
import { html } from '../html.js';
import type { PageView } from '../layout.js';
import type { PageContext } from '../page-context.js';
import { href, pager, readPage, readSort, sortHeader, sortRows, type SortState } from '../table.js';

const FIELDS = ['name', 'channels', 'created'] as const;
type Field = (typeof FIELDS)[number];
export const PAGE_SIZE = 25;

export async function foldersPage(context: PageContext): Promise<PageView> {
  const { folders } = await context.call('folders.list', {});
  const sort = readSort<Field>(context.query, FIELDS, { field: 'created', dir: 'asc' });
  const sorted = sortRows(folders, sort, (folder, field) => field === 'name' ? folder.name.toLowerCase() : field === 'channels' ? folder.channel_count : folder.created_at);
  const pages = Math.max(1, Math.ceil(sorted.length / PAGE_SIZE));
  const page = Math.min(readPage(context.query), pages);
  const link = (s: SortState<Field>, p = 1) => href('/folders', { sort: s.field, dir: s.dir, page: p > 1 ? p : undefined });
  const rows = sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return {
    title: 'Folders',
    twin: 'GET /api/folders',
    body: folders.length === 0
      ? html`<p class="notice">No folders yet. Create one with <code>tubekit folders create &lt;name&gt;</code> and save channels into it.</p>`
      : html`<div class="table-wrap"><table><caption class="skip">Your folders</caption><thead><tr>
${sortHeader('Folder', 'name', sort, link)}${sortHeader('Channels', 'channels', sort, link, true)}${sortHeader('Created', 'created', sort, link)}
</tr></thead><tbody>${rows.map((folder) => html`<tr><td class="title"><a href="/folders/${folder.id}">${folder.name}</a></td><td class="num">${folder.channel_count}</td><td>${folder.created_at}</td></tr>`)}</tbody></table></div>
${pager(page, pages, (p) => link(sort, p))}`,
  };
}
