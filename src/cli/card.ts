/**
 * One result for people: on a terminal, a headline (the verdict) in bold, the details as aligned
 * `key  value` lines, then each section as a table under its title. Piped, `key<TAB>value` lines,
 * then one line per section row led by the section's kind (`member<TAB>UC…<TAB>…`), so
 * `grep ^member | cut -f2` works.
 */
import type { IO } from './io.js';
import { printRecord, printTable, type Column } from './output.js';

type Cell = ReturnType<Column<unknown>['value']>;

export interface CardSection {
  title: string;
  /** First field of each piped row. */
  kind: string;
  headers: string[];
  rows: Cell[][];
}

/** A section of `rows`, shown with `columns`. */
export function cardSection<T>(title: string, kind: string, rows: readonly T[], columns: readonly Column<T>[]): CardSection {
  return { title, kind, headers: columns.map((column) => column.header), rows: rows.map((row) => columns.map((column) => column.value(row))) };
}

/** The signals a live check's answer rests on: `signal<TAB>id<TAB>evidence<TAB>page` rows when piped; none on the sample platform. */
export function signalSections(signals: ReadonlyArray<{ id: string; evidence: string; url: string }> | undefined): CardSection[] {
  if (!signals || signals.length === 0) return [];
  return [
    cardSection('What the pages showed:', 'signal', signals, [
      { header: 'Signal', value: (signal) => signal.id },
      { header: 'Evidence', value: (signal) => signal.evidence },
      { header: 'Page', value: (signal) => signal.url },
    ]),
  ];
}

export async function printCard(io: IO, headline: string, fields: ReadonlyArray<[string, unknown]>, sections: readonly CardSection[] = []): Promise<void> {
  if (!io.stdoutIsTerminal) {
    printRecord(io, fields);
    for (const section of sections) {
      for (const row of section.rows) io.out([section.kind, ...row.map(text)].join('\t'));
    }
    return;
  }
  io.out(io.bold(headline));
  printRecord(io, fields);
  for (const section of sections) {
    if (section.rows.length === 0) continue;
    io.out('');
    io.out(section.title);
    await printTable(io, section.rows, section.headers.map((header, index) => ({ header, value: (row: Cell[]) => row[index] })));
  }
}

const text = (value: Cell): string => (value === null || value === undefined ? '' : String(value).replace(/[\t\n]/g, ' '));
