/**
 * A column chart of daily values in Unicode blocks (eighths of a cell), with the value axis
 * labelled at its top and bottom and the first and last day under it. Unknown days are empty
 * columns: a gap, never a bar guessed from its neighbours.
 */
const EIGHTHS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

export interface ChartDay {
  date: string;
  value: number | null;
}

/** Days folded into at most `width` columns: a column is the last known value of its days, null if none. */
export function foldColumns(days: readonly ChartDay[], width: number): ChartDay[] {
  if (days.length <= width) return [...days];
  const columns: ChartDay[] = [];
  for (let column = 0; column < width; column++) {
    const from = Math.floor((column * days.length) / width);
    const to = Math.floor(((column + 1) * days.length) / width);
    const slice = days.slice(from, to);
    const known = slice.filter((day) => day.value !== null);
    columns.push({ date: slice.at(-1)!.date, value: known.at(-1)?.value ?? null });
  }
  return columns;
}

export function blockChart(days: readonly ChartDay[], options: { width: number; height?: number; format?: (value: number) => string }): string[] {
  const height = options.height ?? 8;
  const format = options.format ?? ((value: number) => value.toLocaleString('en-US'));
  const known = days.filter((day) => day.value !== null).map((day) => day.value!);
  if (known.length === 0) return ['(no day of this period is known)'];
  const min = Math.min(...known);
  const max = Math.max(...known);
  const labels = [format(max), format(min)];
  const labelWidth = Math.max(...labels.map((label) => label.length));
  const columns = foldColumns(days, Math.max(8, options.width - labelWidth - 3));
  // The lowest value still shows a sliver, so a known day never looks like a gap.
  const eighths = columns.map((day) => (day.value === null ? 0 : max === min ? height * 4 : 1 + Math.round(((day.value - min) / (max - min)) * (height * 8 - 1))));
  const lines: string[] = [];
  for (let row = height - 1; row >= 0; row--) {
    const cells = eighths.map((filled) => EIGHTHS[Math.max(0, Math.min(8, filled - row * 8))]!).join('');
    const label = row === height - 1 ? labels[0]! : row === 0 ? labels[1]! : '';
    lines.push(`${label.padStart(labelWidth)} ┤${cells}`);
  }
  const first = columns[0]!.date;
  const last = columns.at(-1)!.date;
  const axis = `${' '.repeat(labelWidth)} └${'─'.repeat(columns.length)}`;
  const gap = Math.max(1, columns.length - first.length - last.length);
  lines.push(axis, `${' '.repeat(labelWidth + 2)}${first}${' '.repeat(gap)}${last}`);
  return lines;
}
