import { afterEach, describe, expect, it, vi } from 'vitest';
import { budgetMet, printRows, type BenchRow } from '../../../bench/table.js';

const row = (value: number, budget: string, baseline?: number, unit = 'ms'): BenchRow => ({
  name: 'row',
  value,
  unit,
  budget,
  ...(baseline === undefined ? {} : { baseline: { name: 'base', value: baseline } }),
});

afterEach(() => vi.restoreAllMocks());

describe('bench budgets', () => {
  it('checks ratios to the baseline, absolute limits and limits over the baseline', () => {
    expect(budgetMet(row(48, '≥ 0.5×', 100))).toBe(false);
    expect(budgetMet(row(50, '≥ 0.5×', 100))).toBe(true);
    expect(budgetMet(row(151, '≤ 1.5× (flat)', 100))).toBe(false);
    expect(budgetMet(row(40, '≤ 50 ms'))).toBe(true);
    expect(budgetMet(row(100, '< 100 ms'))).toBe(false);
    expect(budgetMet(row(11, '≤ 10 s', undefined, 's'))).toBe(false);
    expect(budgetMet(row(390, '≤ baseline + 100 ms', 300))).toBe(true);
    expect(budgetMet(row(450, '≤ baseline + 100 ms', 300))).toBe(false);
  });

  it('leaves budgets in words unchecked, and refuses one it cannot judge', () => {
    expect(budgetMet(row(900, 'about 1 s'))).toBeUndefined();
    expect(budgetMet(row(1, '≈ 1× (settles)', 1))).toBeUndefined();
    expect(() => budgetMet(row(1, '≤ 2×'))).toThrow(/needs a baseline/);
    expect(() => budgetMet(row(1, '≤ 10 s'))).toThrow(/not in the row's unit/);
  });

  it('marks the rows that missed their budget and counts them', () => {
    const printed: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => printed.push(line));
    const missed = printRows([
      { ...row(46, '≥ 0.5×', 100), name: 'serve: GET /api/health' },
      { ...row(60, '≥ 0.5×', 100), name: 'serve: GET /api/folders' },
      { ...row(900, 'about 1 s'), name: 'first use' },
    ]);
    expect(missed).toBe(1);
    expect(printed.find((line) => line.startsWith('serve: GET /api/health'))).toMatch(/≥ 0\.5×\s+MISSED$/);
    expect(printed.find((line) => line.startsWith('serve: GET /api/folders'))).toMatch(/\s+ok$/);
    expect(printed.find((line) => line.startsWith('first use'))).toMatch(/not checked$/);
  });
});
