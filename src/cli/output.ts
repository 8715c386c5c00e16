import type { IO } from './io.js';

export interface Column<T> {
  header: string;
  value(row: T): string | number | boolean | null | undefined;
}

/** Exactly the API body: compact when piped, indented on a terminal. */
export function printJson(io: IO, body: unknown): void {
  io.out(io.stdoutIsTerminal ? JSON.stringify(body, null, 2) : JSON.stringify(body));
}

const cell = (value: string | number | boolean | null | undefined): string =>
  value === null || value === undefined ? '' : String(value).replace(/[\t\n]/g, ' ');

/** A table on a terminal; tab-separated rows without a header when piped. */
export async function printTable<T>(io: IO, rows: readonly T[], columns: readonly Column<T>[]): Promise<void> {
  if (!io.stdoutIsTerminal) {
    for (const row of rows) io.out(columns.map((column) => cell(column.value(row))).join('\t'));
    return;
  }
  if (rows.length === 0) {
    io.note('(none)');
    return;
  }
  const { default: Table } = await import('cli-table3');
  const table = new Table({
    head: columns.map((column) => io.bold(column.header)),
    style: { head: [], border: [] },
  });
  for (const row of rows) table.push(columns.map((column) => cell(column.value(row))));
  io.out(table.toString());
}

/** Key/value lines for a single record: `key: value` on a terminal, `key<TAB>value` when piped. */
export function printRecord(io: IO, entries: ReadonlyArray<[string, unknown]>): void {
  const shown = entries.filter(([, value]) => value !== undefined);
  const width = Math.max(...shown.map(([key]) => key.length));
  for (const [key, value] of shown) {
    const text = typeof value === 'object' && value !== null ? JSON.stringify(value) : cell(value as never);
    io.out(io.stdoutIsTerminal ? `${key.padEnd(width)}  ${text}` : `${key}\t${text}`);
  }
}

/** Friendly numbers on a terminal (1.2M), exact ones when piped. */
export function count(io: IO, value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (!io.stdoutIsTerminal) return String(value);
  return new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}

export function signed(io: IO, value: number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = count(io, Math.abs(value));
  return value < 0 ? `-${text}` : io.stdoutIsTerminal ? `+${text}` : text;
}
