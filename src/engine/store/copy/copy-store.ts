/**
 * Copies an embedded engine's state from its SQLite file into a fleet's PostgreSQL, table by table
 * as copy-tables.ts declares them: in batches, each batch one transaction (a failure leaves the
 * target as it was before that batch), as upserts on the declared keys (a second run changes
 * nothing), moving each identity column's sequence past the copied ids. The source is read in one
 * snapshot, so a data dir still in use is copied as it was at one moment.
 */
import type { Statement } from 'better-sqlite3';
import { copyRowFiles, type FileCopy } from './copy-files.js';
import type { PostgresStore } from '../postgres-store.js';
import type { SqlValue, Transaction } from '../store.js';
import type { CopySource } from './copy-source.js';
import { OPERATOR_NAME } from '../../identity/operator-account.js';
import { COPIED_TABLES, DERIVED_TABLES, NOT_COPIED, type CopiedTable } from './copy-tables.js';

export interface TableCopy {
  /** The source's rows the copy took (written, or found already there as they are). */
  rows: number;
  /** The rows the target did not already hold as they are: inserted or replaced. */
  written: number;
  /** The source's rows left out by the table's filter… */
  skipped: number;
  /** …and why (present when some were). */
  skipped_reason?: string;
  /** Tables whose rows name files (voices' samples): files copied, found already there, and missing from the source. */
  files?: FileCopy;
}

export interface CopyReport {
  tables: Record<string, TableCopy>;
  not_copied: Record<string, string>;
}

export interface CopyOptions {
  /** The source's files dir and the target's (a fleet's shared one); tables that name files need both. */
  files?: { from: string; to: string };
  /** Copy into a target holding rows that did not come from this source (same keys are replaced). */
  force?: boolean;
  /** Rows per transaction. */
  batchSize?: number;
  /** Called after every committed batch: rows copied so far of all the tables' rows. */
  onProgress?: (done: number, total: number) => void;
  /** The declared lists (tests give others). */
  tables?: readonly CopiedTable[];
  notCopied?: Readonly<Record<string, string>>;
}

export const DEFAULT_BATCH_SIZE = 500;
const MAX_PARAMETERS = 65_535;

/** The target holds rows that did not come from this source: per table, how many. */
export class TargetNotEmpty extends Error {
  constructor(readonly holdings: Record<string, number>) {
    super(`the target holds ${Object.entries(holdings).map(([table, n]) => `${table} ${n}`).join(', ')}`);
  }
}

/** A batch failed: it was rolled back; `report` says what had been committed before it. */
export class CopyStopped extends Error {
  constructor(
    readonly report: CopyReport,
    readonly table: string,
    /** Rows of `table` before the batch that failed (0: it was the first). */
    readonly at: number,
    override readonly cause: unknown,
  ) {
    super(`copying ${table} stopped at its row ${at + 1}: ${(cause as Error)?.message ?? cause}`);
  }
}

interface PlannedTable {
  spec: CopiedTable;
  columns: string[];
  /** The identity column and its sequence, when the table has one. */
  identity?: { column: string; sequence: string };
  rows: number;
  skipped: number;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const list = (names: readonly string[]) => names.map(quote).join(', ');

export async function copyStore(source: CopySource, target: PostgresStore, options: CopyOptions = {}): Promise<CopyReport> {
  const tables = options.tables ?? COPIED_TABLES;
  const notCopied = options.notCopied ?? NOT_COPIED;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  // One read transaction: every table as it was at one moment, while the source's engine may run on.
  source.db.exec('BEGIN');
  try {
    const plan: PlannedTable[] = [];
    for (const spec of tables) plan.push(await planTable(source, target, spec));
    const operator = await unclaimedOperator(target);
    if (!options.force) {
      // The operator account `engine migrate` made, with no key yet, is not foreign: the source's default user takes its place.
      const holdings = await foreignRows(source, target, plan, notCopied, batchSize, operator);
      if (Object.keys(holdings).length > 0) throw new TargetNotEmpty(holdings);
    }
    if (operator !== undefined && sourceDefaultUser(source)) await target.run('DELETE FROM users WHERE id = ? AND NOT EXISTS (SELECT 1 FROM api_keys WHERE user_id = ?)', [operator, operator]);
    const report: CopyReport = { tables: {}, not_copied: { ...notCopied } };
    const total = plan.reduce((sum, table) => sum + table.rows, 0);
    let done = 0;
    const announce = new Set<string>();
    try {
      for (const table of plan) {
        const copied: TableCopy = { rows: 0, written: 0, skipped: table.skipped };
        if (table.skipped > 0) copied.skipped_reason = table.spec.filter!.reason;
        const fileColumn = table.spec.file;
        if (fileColumn) {
          if (!options.files && table.rows > 0) throw new Error(`${table.spec.table} names files: the copy needs the source's and the target's files dirs.`);
          copied.files = { copied: 0, present: 0, missing: 0 };
        }
        report.tables[table.spec.table] = copied;
        const copyBatch = table.spec.mode === 'counted' ? copyCountedBatch : copyUpsertBatch;
        // One statement binds at most 65535 parameters.
        const rowsPerBatch = Math.max(1, Math.min(batchSize, Math.floor(MAX_PARAMETERS / table.columns.length)));
        for (const batch of sourceBatches(source, table, rowsPerBatch)) {
          let written: number;
          try {
            // Files first: a row on the fleet never names a file that is not there yet.
            if (fileColumn) copyRowFiles(batch.map((row) => row[fileColumn]), options.files!, copied.files!);
            written = await target.transaction((tx) => copyBatch(tx, table, batch));
          } catch (error) {
            throw new CopyStopped(report, table.spec.table, copied.rows, error);
          }
          const rows = table.spec.mode === 'counted' ? batch.reduce((sum, row) => sum + Number(row.__copies), 0) : batch.length;
          copied.rows += rows;
          copied.written += written;
          if (written > 0 && table.spec.announce) announce.add(table.spec.announce);
          done += rows;
          options.onProgress?.(done, total);
        }
      }
    } finally {
      // Servers already running on the target forget what they cached of the tables written.
      for (const channel of announce) await target.notify(channel, '').catch(() => undefined);
    }
    return report;
  } finally {
    source.db.exec('ROLLBACK');
  }
}

/** The table's columns (the target's), its identity column and how many of the source's rows it copies. */
async function planTable(source: CopySource, target: PostgresStore, spec: CopiedTable): Promise<PlannedTable> {
  const targetColumns = await target.all<{ column_name: string; is_identity: string; column_default: string | null; is_nullable: string }>(
    `SELECT column_name, is_identity, column_default, is_nullable FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
    [spec.table],
  );
  if (targetColumns.length === 0) throw new Error(`The copy lists the table ${spec.table}, which the target's schema does not have.`);
  const present = sourceHas(source, spec);
  const sourceColumns = new Set(
    spec.from
      ? [...(present ? source.db.prepare(selectOf(source, spec.from)).columns().map((column) => column.name) : targetColumns.map((column) => column.column_name)), ...(spec.from.derived ?? [])]
      : source.db.prepare<[string], { name: string }>('SELECT name FROM pragma_table_info(?)').all(spec.table).map((row) => row.name),
  );
  // A column only the fleet keeps (e.g. the queue's `watched`) takes its default; one it cannot do without means the source is of another version.
  const fleetOnly = (column: (typeof targetColumns)[number]) => column.column_default !== null || column.is_nullable === 'YES' || column.is_identity === 'YES';
  const missing = targetColumns.filter((column) => !sourceColumns.has(column.column_name) && !fleetOnly(column)).map((column) => column.column_name);
  if (missing.length > 0) throw new Error(`The source's ${spec.table} lacks the column${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of the target's: its schema is not this version's.`);
  // A column the target has no place for would be lost without a word: the target's schema is behind, or the copy forgot it.
  const targetNames = new Set(targetColumns.map((column) => column.column_name));
  const dropped = [...sourceColumns].filter((column) => !targetNames.has(column));
  if (dropped.length > 0) {
    throw new Error(
      `The source's ${spec.table} has the column${dropped.length === 1 ? '' : 's'} ${dropped.join(', ')}, which the target's ${spec.table} lacks: copying would lose ${dropped.length === 1 ? 'it' : 'them'}. Nothing was copied; upgrade the target (engine migrate) or this tubekit.`,
    );
  }
  const columns = targetColumns.map((column) => column.column_name).filter((column) => sourceColumns.has(column));
  if (spec.mode === 'counted' && (spec.key.length !== columns.length || columns.some((column) => !spec.key.includes(column)))) {
    throw new Error(`${spec.table} is copied 'counted': its key must be every column (${columns.join(', ')}).`);
  }
  const identityColumn = targetColumns.find((column) => column.is_identity === 'YES')?.column_name;
  let identity: PlannedTable['identity'];
  if (identityColumn) {
    const found = await target.get<{ sequence: string }>('SELECT pg_get_serial_sequence(?, ?) AS sequence', [quote(spec.table), identityColumn]);
    identity = { column: identityColumn, sequence: found!.sequence };
  }
  const counts = present
    ? source.db
        .prepare<[], { n: number; kept: number | null }>(`SELECT COUNT(*) AS n, SUM(CASE WHEN ${spec.filter?.keep ?? '1'} THEN 1 ELSE 0 END) AS kept FROM ${relationOf(source, spec)}`)
        .get()!
    : { n: 0, kept: 0 };
  const rows = counts.kept ?? 0;
  return { spec, columns, identity, rows, skipped: counts.n - rows };
}

type SourceRow = Record<string, SqlValue>;

/** Whether the source holds the table's rows at all (a table made on first use may not be there). */
function sourceHas(source: CopySource, spec: CopiedTable): boolean {
  if (!spec.from?.requires) return true;
  return source.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(spec.from.requires) !== undefined;
}

/** What the source's rows are read from: its table of the same name, or the declared query. */
const relationOf = (source: CopySource, spec: CopiedTable) => (spec.from ? `(${selectOf(source, spec.from)}) AS source` : quote(spec.table));

/** A declared query of the source: fixed, or made from what the source's file holds. */
const selectOf = (source: CopySource, from: NonNullable<CopiedTable['from']>) => (typeof from.select === 'function' ? from.select(source.db) : from.select);

/** The columns read from the source (a declared query's derived ones are made from them). */
const readColumns = (table: PlannedTable) => table.columns.filter((column) => !table.spec.from?.derived?.includes(column));

/** The source's rows to copy, in key order, `size` at a time ('counted' tables: each distinct row once, with its number of copies). */
function* sourceBatches(source: CopySource, table: PlannedTable, size: number): Generator<SourceRow[]> {
  if (!sourceHas(source, table.spec)) return;
  const where = table.spec.filter ? `WHERE ${table.spec.filter.keep}` : '';
  const columns = readColumns(table);
  const relation = relationOf(source, table.spec);
  const sql =
    table.spec.mode === 'counted'
      ? `SELECT ${list(columns)}, COUNT(*) AS __copies FROM ${relation} ${where} GROUP BY ${list(columns)} ORDER BY ${list(table.spec.key)}`
      : `SELECT ${list(columns)} FROM ${relation} ${where} ORDER BY ${list(table.spec.key)}`;
  const derive = table.spec.from?.derive;
  let batch: SourceRow[] = [];
  for (const row of source.db.prepare<[], SourceRow>(sql).iterate()) {
    batch.push(derive ? { ...row, ...derive(row) } : row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

const placeholders = (rows: number, columns: number) => Array.from({ length: rows }, () => `(${Array(columns).fill('?').join(', ')})`).join(', ');

/** Inserts the batch, replacing rows with the same key that differ; returns how many rows it inserted or replaced. */
async function copyUpsertBatch(tx: Transaction, table: PlannedTable, batch: SourceRow[]): Promise<number> {
  const { columns, spec } = table;
  const others = columns.filter((column) => !spec.key.includes(column));
  const onConflict = others.length === 0
    ? 'DO NOTHING'
    : `DO UPDATE SET ${others.map((column) => `${quote(column)} = EXCLUDED.${quote(column)}`).join(', ')}
       WHERE (${others.map((column) => `${quote(spec.table)}.${quote(column)}`).join(', ')}) IS DISTINCT FROM (${others.map((column) => `EXCLUDED.${quote(column)}`).join(', ')})`;
  const { changes } = await tx.run(
    `INSERT INTO ${quote(spec.table)} (${list(columns)}) VALUES ${placeholders(batch.length, columns.length)}
     ON CONFLICT (${list(spec.key)}) ${onConflict}`,
    batch.flatMap((row) => columns.map((column) => row[column] ?? null)),
  );
  await advanceIdentity(tx, table, batch);
  return changes;
}

/** Adds the copies of each row the target lacks (it ends with as many as the source has); returns how many it added. */
async function copyCountedBatch(tx: Transaction, table: PlannedTable, batch: SourceRow[]): Promise<number> {
  const { columns, spec } = table;
  const keyOf = (row: Record<string, unknown>) => JSON.stringify(columns.map((column) => row[column]));
  const present = await tx.all<Record<string, unknown> & { __copies: number }>(
    `SELECT ${list(columns)}, COUNT(*) AS __copies FROM ${quote(spec.table)}
     WHERE (${list(columns)}) IN (${placeholders(batch.length, columns.length)}) GROUP BY ${list(columns)}`,
    batch.flatMap((row) => columns.map((column) => row[column] ?? null)),
  );
  const there = new Map(present.map((row) => [keyOf(row), row.__copies]));
  const missing: SourceRow[] = [];
  for (const row of batch) {
    for (let copy = there.get(keyOf(row)) ?? 0; copy < Number(row.__copies); copy++) missing.push(row);
  }
  if (missing.length === 0) return 0;
  await tx.run(
    `INSERT INTO ${quote(spec.table)} (${list(columns)}) VALUES ${placeholders(missing.length, columns.length)}`,
    missing.flatMap((row) => columns.map((column) => row[column] ?? null)),
  );
  await advanceIdentity(tx, table, missing);
  return missing.length;
}

/** Moves the table's identity sequence past the highest id copied, so rows made later on the fleet take new ids. */
async function advanceIdentity(tx: Transaction, table: PlannedTable, rows: SourceRow[]): Promise<void> {
  if (!table.identity) return;
  const highest = Math.max(...rows.map((row) => Number(row[table.identity!.column])));
  if (!Number.isFinite(highest)) return;
  await tx.run(
    'SELECT setval(CAST(? AS regclass), CAST(? AS bigint)) WHERE CAST(? AS bigint) > COALESCE(pg_sequence_last_value(CAST(? AS regclass)), 0)',
    [table.identity.sequence, highest, highest, table.identity.sequence],
  );
}

/**
 * What the target holds that did not come from this source, per table: rows whose key the source
 * does not copy or whose values differ (so a second run of the same copy, or one resumed after a
 * failure, goes ahead), and any row of the tables the copy leaves alone or does not know.
 */
async function foreignRows(
  source: CopySource,
  target: PostgresStore,
  plan: PlannedTable[],
  notCopied: Readonly<Record<string, string>>,
  batchSize: number,
  operator: number | undefined,
): Promise<Record<string, number>> {
  const holdings: Record<string, number> = {};
  const tables = await target.all<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const planned = new Map(plan.map((table) => [table.spec.table, table]));
  for (const { table_name: name } of tables) {
    if (name === 'schema_migrations' || DERIVED_TABLES.has(name)) continue;
    const table = planned.get(name);
    const n = table ? await differingRows(source, target, table, batchSize, name === 'users' ? operator : undefined) : (await target.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${quote(name)}`))!.n;
    if (n > 0) holdings[name] = n;
  }
  // Kept in the declared order, parents first, then the rest by name.
  const order = [...plan.map((table) => table.spec.table), ...Object.keys(notCopied)];
  return Object.fromEntries(Object.entries(holdings).sort(([a], [b]) => rank(order, a) - rank(order, b) || a.localeCompare(b)));
}

const rank = (order: string[], name: string) => (order.includes(name) ? order.indexOf(name) : order.length);

/** The fleet's operator account while no key belongs to it (so nothing was made as it). */
async function unclaimedOperator(target: PostgresStore): Promise<number | undefined> {
  const row = await target.get<{ id: number }>(
    'SELECT id FROM users WHERE is_default = 1 AND name = ? AND NOT EXISTS (SELECT 1 FROM api_keys WHERE api_keys.user_id = users.id) ORDER BY id LIMIT 1',
    [OPERATOR_NAME],
  );
  return row?.id;
}

const sourceDefaultUser = (source: CopySource) => source.db.prepare('SELECT 1 FROM users WHERE is_default = 1').get() !== undefined;

/** Rows of one copied table in the target that this source's copy would not write exactly so (`skipId`: the id of a row not counted). */
async function differingRows(source: CopySource, target: PostgresStore, table: PlannedTable, batchSize: number, skipId?: number): Promise<number> {
  const { spec } = table;
  // Derived columns follow from the others: equal sources make equal rows.
  const columns = readColumns(table);
  const counted = spec.mode === 'counted';
  const keep = spec.filter ? ` AND (${spec.filter.keep})` : '';
  const byKey = spec.key.map((column) => `${quote(column)} = ?`).join(' AND ');
  const present = sourceHas(source, spec);
  const lookup: Pick<Statement, 'get'> = !present
    ? { get: () => undefined }
    : counted
      ? source.db.prepare(`SELECT COUNT(*) AS __copies FROM ${relationOf(source, spec)} WHERE ${byKey}${keep}`)
      : source.db.prepare(`SELECT ${list(columns)} FROM ${relationOf(source, spec)} WHERE ${byKey}${keep}`);
  const selected = counted ? `${list(spec.key)}, COUNT(*) AS __copies` : list(columns);
  const grouped = counted ? ` GROUP BY ${list(spec.key)}` : '';
  let differing = 0;
  let after: unknown[] | undefined;
  for (;;) {
    const rows = await target.all<Record<string, unknown>>(
      `SELECT ${selected} FROM ${quote(spec.table)}${after ? ` WHERE (${list(spec.key)}) > (${spec.key.map(() => '?').join(', ')})` : ''}${grouped}
       ORDER BY ${list(spec.key)} LIMIT ${batchSize}`,
      (after ?? []) as SqlValue[],
    );
    for (const row of rows) {
      if (skipId !== undefined && row.id === skipId) continue;
      const keyValues = spec.key.map((column) => row[column]);
      const found = lookup.get(...keyValues) as Record<string, unknown> | undefined;
      if (counted) differing += Math.max(0, Number(row.__copies) - Number(found?.__copies ?? 0));
      else if (!found || columns.some((column) => !sameValue(found[column], row[column]))) differing += 1;
    }
    if (rows.length < batchSize) return differing;
    after = spec.key.map((column) => rows.at(-1)![column]);
  }
}

/** SQLite's and PostgreSQL's values of one column, compared as the text they stand for. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b)) return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
  return String(a) === String(b);
}
