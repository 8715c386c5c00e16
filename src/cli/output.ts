import type { IO } from './io.js';

type CellValue = string | number | boolean | null | undefined | readonly unknown[] | object;

export interface Column<T> {
  header: string;
  value(row: T): CellValue;
}

/**
 * Exactly the API body: compact when piped, indented on a terminal. With `--jq` the body is held
 * and filtered once the command is done (see CliApp.flushJson), so every command gets the filter.
 */
export function printJson(io: IO, body: unknown): void {
  if (io.jsonSink) {
    io.jsonSink(body);
    return;
  }
  io.out(io.stdoutIsTerminal ? JSON.stringify(body, null, 2) : JSON.stringify(body));
}

/** One cell as text: lists joined with commas, records as JSON, no tabs or line breaks. */
export function cellText(value: CellValue, separator = ','): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((item) => cellText(item as CellValue, separator)).join(separator);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value).replace(/[\t\r\n]+/g, ' ');
}

/** Words that name a state, and how a terminal colours them. */
const STATE_COLOURS: Record<string, 'green' | 'red' | 'yellow'> = {
  completed: 'green',
  healthy: 'green',
  degraded: 'yellow',
  active: 'green',
  on: 'green',
  failed: 'red',
  revoked: 'red',
  running: 'yellow',
  processing: 'yellow',
  queued: 'yellow',
  pending: 'yellow',
};

/** A cell coloured by the state its first word names (on a colour terminal only). */
function coloured(io: IO, text: string): string {
  const colour = STATE_COLOURS[text.split(/[\s(]/, 1)[0]!.toLowerCase()];
  return colour ? io.paint(text, colour) : text;
}

/**
 * Column widths that fit the terminal: while the table is too wide, the widest column gives up
 * a cell (no column goes below its header or 8 cells).
 */
function fitWidths(natural: number[], minimums: number[], available: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.length - 1);
  while (total() > available) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) if (widths[i]! > minimums[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    if (widest < 0) break;
    widths[widest]! -= 1;
  }
  return widths;
}

/**
 * Rows as gh prints them: plain aligned columns under an upper-case header on a terminal (cut to
 * its width, states coloured); tab-separated rows without a header when piped. Both forms have
 * the same columns in the same order.
 */
export async function printTable<T>(io: IO, rows: readonly T[], columns: readonly Column<T>[]): Promise<void> {
  if (!io.stdoutIsTerminal) {
    for (const row of rows) io.out(columns.map((column) => cellText(column.value(row))).join('\t'));
    return;
  }
  if (rows.length === 0) {
    io.note('(none)');
    return;
  }
  // Measuring in cells needs Unicode data that costs ~50 ms to load: only terminal tables pay it.
  const { cellWidth, truncateToWidth } = await import('./cell-width.js');
  const headers = columns.map((column) => column.header.toUpperCase());
  const cells = rows.map((row) => columns.map((column) => cellText(column.value(row), ', ')));
  const natural = headers.map((header, i) => Math.max(cellWidth(header), ...cells.map((line) => cellWidth(line[i]!))));
  const minimums = natural.map((w, i) => Math.min(w, Math.max(cellWidth(headers[i]!), 8)));
  const available = io.stdoutColumns ?? Infinity;
  const widths = fitWidths(natural, minimums, available);
  const render = (line: string[], style: (text: string) => string) =>
    line
      .map((text, i) => {
        const cut = truncateToWidth(text, widths[i]!);
        const last = i === line.length - 1;
        return style(cut) + (last ? '' : ' '.repeat(widths[i]! - cellWidth(cut) + 2));
      })
      .join('')
      .trimEnd();
  io.out(render(headers, (text) => io.paint(text, 'bold')));
  for (const line of cells) io.out(render(line, (text) => coloured(io, text)));
}

/** Key/value lines for a single record: `key  value` on a terminal, `key<TAB>value` when piped. */
export function printRecord(io: IO, entries: ReadonlyArray<[string, unknown]>): void {
  const shown = entries.filter(([, value]) => value !== undefined);
  const keyWidth = Math.max(...shown.map(([key]) => key.length));
  for (const [key, value] of shown) {
    if (!io.stdoutIsTerminal) {
      io.out(`${key}\t${cellText(value as CellValue)}`);
      continue;
    }
    io.out(`${io.paint(key.padEnd(keyWidth), 'dim')}  ${coloured(io, cellText(value as CellValue, ', '))}`);
  }
}

/** Friendly numbers on a terminal (1.2M), exact ones when piped; an unknown one is "—" on a terminal, empty when piped. */
export function count(io: IO, value: number | null | undefined): string {
  if (value === null || value === undefined) return io.stdoutIsTerminal ? '—' : '';
  if (!io.stdoutIsTerminal) return String(value);
  return new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

export function signed(io: IO, value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = count(io, Math.abs(value));
  return value < 0 ? `-${text}` : io.stdoutIsTerminal ? `+${text}` : text;
}
