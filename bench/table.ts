/** One row of the benchmark report: a measurement and, where it has one, its baseline. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** The baseline measured side by side in the same run. */
  baseline?: { name: string; value: number };
  /** The budget, as a ratio to the baseline or an absolute value in `unit`. */
  budget?: string;
}

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

export function printRows(rows: BenchRow[]): void {
  const lines = rows.map((row) => {
    const ratio = row.baseline ? `${(row.value / row.baseline.value).toFixed(2)}× ${row.baseline.name} (${format(row.baseline.value)} ${row.unit})` : '';
    return [row.name, `${format(row.value)} ${row.unit}`, ratio, row.budget ?? ''];
  });
  const header = ['measurement', 'value', 'ratio to baseline', 'budget'];
  const widths = header.map((title, index) => Math.max(title.length, ...lines.map((line) => line[index]!.length)));
  const render = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join('  ');
  console.log(render(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(render(line));
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
