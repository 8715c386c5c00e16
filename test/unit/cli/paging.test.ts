/**
 * `--all` walks pages by whatever the server says about them — `total`, `total_pages`, or nothing
 * at all (a short or empty page ends it) — and says when the endpoint's page limit cut it short.
 */
import { describe, expect, it } from 'vitest';
import type { CliApp } from '../../../src/cli/app.js';
import { fetchAllPages } from '../../../src/cli/paging.js';
import { memoryIO } from '../../support/memory-io.js';

/** A listing of `count` rows served `size` at a time, with the page fields `fields` picks. */
function server(count: number, size: number, fields: (page: number) => Record<string, unknown> = () => ({})) {
  const asked: number[] = [];
  const fetchPage = async (page: number) => {
    asked.push(page);
    const rows = Array.from({ length: Math.max(0, Math.min(size, count - (page - 1) * size)) }, (_, i) => (page - 1) * size + i);
    return { success: true, ...fields(page), rows };
  };
  return { asked, fetchPage };
}

describe('fetchAllPages', () => {
  const run = async (listing: { maxPage: number; perPage?: number }, source: ReturnType<typeof server>) => {
    const memory = memoryIO();
    const result = await fetchAllPages({ io: memory.io } as CliApp, { key: 'rows', ...listing }, source.fetchPage);
    return { ...result, note: memory.stderr() };
  };

  it('stops at total rows, without asking for an empty page', async () => {
    const source = server(25, 10, () => ({ total: 25 }));
    const { rows, note } = await run({ maxPage: 20 }, source);
    expect(rows).toHaveLength(25);
    expect(source.asked).toEqual([1, 2, 3]);
    expect(note).toBe('');
  });

  it('stops at total_pages, and at a short page when the server says nothing of the total', async () => {
    const paged = server(100, 10, () => ({ total_pages: 2 }));
    expect((await run({ maxPage: 20 }, paged)).rows).toHaveLength(20);
    expect(paged.asked).toEqual([1, 2]);
    const bare = server(25, 10);
    expect((await run({ maxPage: 20, perPage: 10 }, bare)).rows).toHaveLength(25);
    expect(bare.asked).toEqual([1, 2, 3]);
    const exact = server(20, 10);
    expect((await run({ maxPage: 20 }, exact)).rows).toHaveLength(20);
    expect(exact.asked).toEqual([1, 2, 3]);
  });

  it('stops at the endpoint\'s last page and says how many rows it left out', async () => {
    const source = server(5000, 50, () => ({ total: 5000, per_page: 50 }));
    const { rows, note } = await run({ maxPage: 20 }, source);
    expect(rows).toHaveLength(1000);
    expect(source.asked).toHaveLength(20);
    expect(note).toBe("Showing the first 1,000 of 5,000: the service's pages stop at page 20; narrow the request to see the others.\n");
  });
});
