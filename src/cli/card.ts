/**
 * One result for people: on a terminal, a headline (the verdict) in bold, the details as aligned
 * `key  value` lines, then each section as a table under its title. Piped, `key<TAB>value` lines,
 * then one line per section row led by the section's kind (`member<TAB>UC…<TAB>…`), so
 * `grep ^member | cut -f2` works.
 */
import type { IO } from './io.js';
import { printRecord, printTable, type Column } from './output.js';

export interface CardSection<T> {
  title: string;
  /** First field of each piped row. */
  kind: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
}

export async function printCard(
  io: IO,
  headline: string,
  fields: ReadonlyArray<[string, unknown]>,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  sections: ReadonlyArray<CardSection<any>> = [],
): Promise<void> {
  if (!io.stdoutIsTerminal) {
    printRecord(io, fields);
    for (const section of sections) {
      for (const row of section.rows) io.out([section.kind, ...section.columns.map((column) => text(column.value(row)))].join('\t'));
    }
    return;
  }
  io.out(io.bold(headline));
  printRecord(io, fields);
  for (const section of sections) {
    if (section.rows.length === 0) continue;
    io.out('');
    io.out(section.title);
    await printTable(io, section.rows, section.columns);
  }
}

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value).replace(/[\t\n]/g, ' '));
