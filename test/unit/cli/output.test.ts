import { describe, expect, it } from 'vitest';
import { cellWidth, truncateToWidth } from '../../../src/cli/cell-width.js';
import { printRecord, printTable, type Column } from '../../../src/cli/output.js';
import { clip, clipEchoes } from '../../../src/core/echo-text.js';
import { memoryIO } from '../../support/memory-io.js';

interface Row {
  id: number;
  name: string;
  state: string;
  tags: string[];
}
const rows: Row[] = [
  { id: 1, name: 'Cooking', state: 'completed', tags: ['a', 'b'] },
  { id: 12, name: 'Late-night piano', state: 'failed', tags: [] },
];
const columns: Column<Row>[] = [
  { header: 'ID', value: (row) => row.id },
  { header: 'Name', value: (row) => row.name },
  { header: 'State', value: (row) => row.state },
  { header: 'Tags', value: (row) => row.tags },
];

describe('tables and records', () => {
  it('prints plain aligned columns under an upper-case header on a terminal, as gh does (no boxes)', async () => {
    const { io, stdout } = memoryIO({ terminal: true });
    await printTable(io, rows, columns);
    expect(stdout().split('\n')).toEqual([
      'ID  NAME              STATE      TAGS',
      '1   Cooking           completed  a, b',
      '12  Late-night piano  failed',
      '',
    ]);
  });

  it('prints the same columns in the same order as tab-separated rows when piped, lists joined with commas', async () => {
    const { io, stdout } = memoryIO();
    await printTable(io, rows, columns);
    expect(stdout()).toBe('1\tCooking\tcompleted\ta,b\n12\tLate-night piano\tfailed\t\n');
  });

  it('colours states on a colour terminal only', async () => {
    const coloured = memoryIO({ terminal: true, env: {} });
    await printTable(coloured.io, rows, columns);
    expect(coloured.stdout()).toContain('\u001b[32mcompleted\u001b[39m');
    expect(coloured.stdout()).toContain('\u001b[31mfailed\u001b[39m');
    const plain = memoryIO({ terminal: true, env: { NO_COLOR: '1' } });
    await printTable(plain.io, rows, columns);
    expect(plain.stdout()).not.toContain('\u001b[');
    const piped = memoryIO({ env: { FORCE_COLOR: '1' } });
    await printTable(piped.io, rows, columns);
    expect(piped.stdout()).not.toContain('\u001b[');
  });

  it('cuts the widest column to fit the terminal width', async () => {
    const { io, stdout } = memoryIO({ terminal: true, columns: 30 });
    await printTable(io, [{ id: 1, name: 'x'.repeat(60), state: 'completed', tags: [] }], columns);
    for (const line of stdout().trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(30);
    expect(stdout()).toContain('…');
  });

  it('aligns Japanese, Korean and emoji titles by terminal cells, not code points', async () => {
    const { io, stdout } = memoryIO({ terminal: true });
    const wide = [
      { id: 1, name: '料理の基本', state: 'completed', tags: [] },
      { id: 2, name: '한국 요리', state: 'failed', tags: [] },
      { id: 3, name: 'Piano 🎹👨‍👩‍👧', state: 'queued', tags: [] },
    ];
    await printTable(io, wide, columns);
    expect(stdout().split('\n')).toEqual([
      'ID  NAME        STATE      TAGS',
      '1   料理の基本  completed',
      '2   한국 요리   failed',
      '3   Piano 🎹👨‍👩‍👧  queued',
      '',
    ]);
  });

  it('cuts wide titles by cells without splitting a character or an emoji sequence', async () => {
    const { io, stdout } = memoryIO({ terminal: true, columns: 24 });
    await printTable(io, [{ id: 1, name: '日本語のとても長いタイトルです👨‍👩‍👧', state: 'completed', tags: [] }], columns.slice(0, 3));
    const lines = stdout().trimEnd().split('\n');
    for (const line of lines) expect(cellWidth(line)).toBeLessThanOrEqual(24);
    expect(lines[1]).toBe('1   日本語の…  completed');
    expect(truncateToWidth('ab👨‍👩‍👧cd', 4)).toBe('ab…');
    expect(truncateToWidth('ab👨‍👩‍👧cd', 5)).toBe('ab👨‍👩‍👧…');
  });

  it('joins lists in records instead of printing JSON brackets', async () => {
    const { io, stdout } = memoryIO();
    printRecord(io, [['voice_id', 'clone_1'], ['tags', []], ['more', ['x', 'y']]]);
    expect(stdout()).toBe('voice_id\tclone_1\ntags\t\nmore\tx,y\n');
  });
});

describe('echoed values', () => {
  it('cuts an overlong word of a message and says how long it was', async () => {
    const handle = `@${'a'.repeat(100_000)}`;
    const message = clipEchoes(`No channel matches "${handle}". Check the handle.`);
    expect(message.length).toBeLessThan(200);
    expect(message).toMatch(/^No channel matches "@a+…\(100,002 characters\)"\. Check the handle\.$/);
    expect(clip('short')).toBe('short');
  });
});
