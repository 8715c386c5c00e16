/** One row of the benchmark report: a measurement and, where it has one, its baseline. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** The baseline measured side by side in the same run. */
  baseline?: { name: string; value: number };
  /**
   * The budget. Checked when it reads `≤ 2×` / `≥ 0.5×` (a ratio to the baseline), `≤ 50 ms`
   * (in the row's unit) or `≤ baseline + 100 ms`; anything else (`about 1 s`) is shown, not checked.
   */
  budget?: string;
}

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

const CHECKED_BUDGET = /^(≤|<|≥|>)\s*(baseline\s*\+\s*)?(\d+(?:\.\d+)?)\s*(×|[^\s(]+)?/;

/** Whether a row met its budget; undefined for a budget in words. A budget that cannot be judged is an error. */
export function budgetMet(row: BenchRow): boolean | undefined {
  const match = row.budget === undefined ? null : CHECKED_BUDGET.exec(row.budget);
  if (!match) return undefined;
  const [, comparison, overBaseline, amount, unit] = match;
  const limit = Number(amount);
  let measured: number;
  if (unit === '×' || overBaseline) {
    if (!row.baseline) throw new Error(`bench row "${row.name}": budget ${row.budget} needs a baseline`);
    measured = unit === '×' ? row.value / row.baseline.value : row.value - row.baseline.value;
  } else {
    measured = row.value;
  }
  if (unit !== '×' && unit !== row.unit) throw new Error(`bench row "${row.name}": budget ${row.budget} is not in the row's unit (${row.unit})`);
  if (comparison === '≤') return measured <= limit;
  if (comparison === '<') return measured < limit;
  if (comparison === '≥') return measured >= limit;
  return measured > limit;
}

/** Prints the report; answers how many rows missed their budget (each marked MISSED). */
export function printRows(rows: BenchRow[]): number {
  let missed = 0;
  const lines = rows.map((row) => {
    const ratio = row.baseline ? `${(row.value / row.baseline.value).toFixed(2)}× ${row.baseline.name} (${format(row.baseline.value)} ${row.unit})` : '';
    const met = budgetMet(row);
    if (met === false) missed += 1;
    const verdict = met === undefined ? (row.budget ? 'not checked' : '') : met ? 'ok' : 'MISSED';
    return [row.name, `${format(row.value)} ${row.unit}`, ratio, row.budget ?? '', verdict];
  });
  const header = ['measurement', 'value', 'ratio to baseline', 'budget', 'verdict'];
  const widths = header.map((title, index) => Math.max(title.length, ...lines.map((line) => line[index]!.length)));
  const render = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join('  ').trimEnd();
  console.log(render(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(render(line));
  return missed;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Median wall time of `runs` runs of `work`, in milliseconds. */
export async function timeMedian(runs: number, work: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    await work();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(times);
}
