import { describe, expect, it } from 'vitest';
import { blockSparkline } from '../../../src/cli/sparkline.js';
import { blockChart, foldColumns } from '../../../src/cli/terminal-chart.js';

const days = (values: Array<number | null>) => values.map((value, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, value }));

describe('terminal charts', () => {
  it('draws a sparkline from lowest to highest block, an unknown day as a space', () => {
    expect(blockSparkline([1, 2, null, 8])).toBe('▁▂ █');
    expect(blockSparkline([5, 5])).toBe('▄▄');
    expect(blockSparkline([null, null])).toBe('');
  });

  it('leaves an unknown day an empty column and labels the axis with the highest and lowest value', () => {
    const lines = blockChart(days([10, null, 20]), { width: 20, height: 2 });
    expect(lines[0]).toMatch(/^20 ┤/);
    expect(lines[1]).toMatch(/^10 ┤/);
    const columns = (line: string) => line.slice(line.indexOf('┤') + 1);
    // Column 2 (the unknown day) is blank on every row; column 3 reaches the top.
    expect(columns(lines[0]!)[1]).toBe(' ');
    expect(columns(lines[1]!)[1]).toBe(' ');
    expect(columns(lines[0]!)[2]).toBe('█');
    expect(columns(lines[1]!)[0]).not.toBe(' ');
    expect(lines.at(-1)).toContain('2026-11-01');
    expect(lines.at(-1)).toContain('2026-11-03');
  });

  it('folds more days than columns into the last known value of each, a column with none unknown', () => {
    expect(foldColumns(days([1, 2, null, null, 5, 6]), 3).map((column) => column.value)).toEqual([2, null, 6]);
  });

  it('says so when no day is known', () => {
    expect(blockChart(days([null, null]), { width: 40 })).toEqual(['(no day of this period is known)']);
  });
});
