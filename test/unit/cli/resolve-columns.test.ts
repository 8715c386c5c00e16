/** The human `resolve` rows read the hosted service's body too: its `channel_name`, and no `known`. */
import { expect, it } from 'vitest';
import { resolveColumns } from '../../../src/cli/commands/resolve.js';

const cells = (row: Record<string, unknown>) => resolveColumns.map((column) => column.value(row as never));

it('shows the hosted channel_name as the title and does not print "no" for a channel it named', () => {
  const hosted = { success: true, input: '@goldenpiano', channel_id: 'UCaaaaaaaaaaaaaaaaaaaaaa', handle: '@goldenpiano', channel_name: 'Golden Piano', channel_thumbnail: null };
  expect(cells(hosted)).toEqual(['UCaaaaaaaaaaaaaaaaaaaaaa', '@goldenpiano', 'Golden Piano', '@goldenpiano', 'yes']);
  const ours = { ...hosted, title: 'Golden Piano', thumbnail_url: null, known: false };
  expect(cells(ours).at(-1)).toBe('no');
});
