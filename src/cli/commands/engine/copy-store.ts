/** `tubekit engine copy-store`: copies an embedded engine's state from its SQLite file into a fleet's PostgreSQL. */
import path from 'node:path';
import type { Command } from 'commander';
import { ServiceError } from '../../../core/errors.js';
import { ExitCode } from '../../../core/exit-codes.js';
import type { CopyReport, CopyStopped } from '../../../engine/store/copy/copy-store.js';
import { parseStoreLocation, StoreLocationError, type StoreLocation } from '../../../engine/store/store-location.js';
import type { CliApp } from '../../app.js';
import { countProgress } from '../../count-progress.js';
import { CliError, usageError } from '../../../core/client-errors.js';
import { examples } from '../../help.js';
import { printJson, printTable } from '../../output.js';

const MAX_BATCH = 10_000;

export function registerCopyStore(engine: Command, app: CliApp): void {
  engine
    .command('copy-store')
    .description("Copy an embedded engine's users, keys, folders, voices, alerts, verdicts, shared settings and finished jobs into a fleet's PostgreSQL")
    .addHelpText('before', examples([
      'tubekit engine copy-store --from sqlite:/var/lib/tubekit --to postgres://tubekit@db.internal/tubekit',
      'tubekit engine copy-store --to postgres://tubekit@db.internal/tubekit --json     # the data dir of --data-dir',
      'TUBEKIT_STORE=postgres://tubekit@db.internal/tubekit tubekit engine copy-store   # the same, the password kept off the command line',
      'tubekit engine copy-store --from sqlite:./old-data --to postgres://tubekit@db.internal/tubekit --force',
      'tubekit --files-dir /mnt/tubekit-files engine copy-store --to postgres://tubekit@db.internal/tubekit   # voices\' samples into the fleet\'s shared files dir',
    ]))
    .addHelpText('after', `
The target is migrated first (as \`engine migrate\` does), then every table the fleet's store holds
today is copied in batches of --batch-size rows, each batch one transaction: users, API keys (their
hashes: a key keeps working, and no key is ever shown), rate-limit windows, folders, saved channels,
voices (clones) with their sample files, alerts with their triggered channels and finished
cycles, the channel checks' verdicts, the settings shared by a fleet (the data dir's own
platform and sample world stay with it) and the jobs that finished (queued or running jobs are not
copied: the output says how many were left). Identity sequences move past the copied ids, so rows
made later on the fleet never collide.

Files: a voice's sample is copied from the source's files dir (its data dir, or --files-from) into
this command's files dir (--files-dir / TUBEKIT_FILES_DIR, default the data dir): give --files-dir
the fleet's shared directory, as its servers have it. Each file is placed whole (written beside its
name, then renamed) before its row, so the fleet never sees a voice without its sample.

Running it again copies nothing twice: rows are upserted on their keys, and a row already there as
it is is left untouched (files already there byte for byte too). A target holding anything that
did not come from this source is refused (exit 2, naming what it holds) unless --force, which
copies into it anyway: rows with the same keys are replaced by the source's, the others kept. A
target that cannot be reached exits 9.

Not copied: the download cache (files render again on the fleet's first request), downloads and
live checks in progress, and what still lives in each data dir in this version — the index and
its history, the sample world.`)
    .option('--from <source>', "the embedded engine to copy: sqlite:<data dir or its tubekit.db> (default: --store when it is sqlite:<file>, else the data dir)")
    .option('--to <store>', 'the PostgreSQL to copy into: postgres://user@host/db (default: --store / TUBEKIT_STORE when it is one)')
    .option('--force', 'copy into a store that already holds other data (same keys: the source wins)')
    .option('--batch-size <rows>', 'rows per transaction', '500')
    .option('--files-from <dir>', "where the source engine kept its files, when it had a files dir of its own (default: the source's data dir)")
    .action(async (options: { from?: string; to?: string; force?: boolean; batchSize: string; filesFrom?: string }) => {
      const target = targetLocation(options.to, app.settings.store);
      const batchSize = Number(options.batchSize);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) throw usageError(`--batch-size must be a whole number from 1 to ${MAX_BATCH}, not "${options.batchSize}".`);
      const from = options.from ?? (app.settings.store.kind === 'sqlite' && app.settings.store.file ? `sqlite:${app.settings.store.file}` : `sqlite:${app.settings.dataDir}`);

      const [{ openCopySource }, { copyStore, CopyStopped, TargetNotEmpty }, { openFleetStore }, { isUnreachable }] = await Promise.all([
        import('../../../engine/store/copy/copy-source.js'),
        import('../../../engine/store/copy/copy-store.js'),
        import('../../../engine/store/open-store.js'),
        import('../../../engine/store/postgres-store.js'),
      ]);
      const source = openCopySource(from);
      try {
        const { store, migration } = await openFleetStore(target, { migrations: 'apply' });
        const progress = countProgress(app.io, 'rows');
        let report: CopyReport;
        try {
          const files = { from: path.resolve(options.filesFrom ?? source.dataDir), to: path.resolve(app.settings.filesDir) };
          report = await copyStore(source, store, { force: options.force, batchSize, files, onProgress: (done, total) => progress.update(done, total) });
        } catch (error) {
          if (error instanceof TargetNotEmpty) {
            throw usageError(
              `The store ${target.description} already holds data that did not come from ${source.description}: ${describeCounts(error.holdings)}. Nothing was copied.`,
              "Copy into an empty database, or add --force to copy into this one anyway (rows with the same keys are replaced by the source's, the others are kept).",
            );
          }
          if (error instanceof CopyStopped) throw stoppedError(error, isUnreachable(error.cause));
          throw error;
        } finally {
          progress.finish();
          await store.close();
        }
        const body = { from: source.description, to: target.description, schema_version: migration!.to, ...report };
        if (app.json) printJson(app.io, body);
        else await showReport(app, body);
      } finally {
        source.close();
      }
    });
}

function targetLocation(to: string | undefined, configured: StoreLocation): Extract<StoreLocation, { kind: 'postgres' }> {
  if (to === undefined) {
    if (configured.kind === 'postgres') return configured;
    throw usageError('Name the PostgreSQL to copy into: --to postgres://user@host/db (or TUBEKIT_STORE).');
  }
  let location: StoreLocation;
  try {
    location = parseStoreLocation(to);
  } catch (error) {
    if (error instanceof StoreLocationError) throw usageError(error.message);
    throw error;
  }
  if (location.kind !== 'postgres') throw usageError('copy-store copies into PostgreSQL: --to postgres://user@host/db.', 'The source is --from sqlite:<data dir>.');
  return location;
}

const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts).map(([table, n]) => `${table} ${n} row${n === 1 ? '' : 's'}`).join(', ');

function stoppedError(error: CopyStopped, unreachable: boolean): Error {
  const copied = Object.fromEntries(Object.entries(error.report.tables).map(([table, copy]) => [table, copy.rows]).filter(([, rows]) => (rows as number) > 0));
  const message =
    `Copying stopped at ${error.table}, row ${error.at + 1}: ${(error.cause as Error)?.message ?? error.cause}. ` +
    `That batch was rolled back; copied before it: ${Object.keys(copied).length > 0 ? describeCounts(copied as Record<string, number>) : 'nothing'}.`;
  const hint = 'Run the same command again once the cause is fixed: rows already copied are not copied twice.';
  if (unreachable) return new ServiceError({ status: 503, code: 'store_unavailable', message, hint });
  return new CliError(message, ExitCode.failure, hint, 'copy_stopped');
}

function showReport(app: CliApp, body: CopyReport & { from: string; to: string }): Promise<void> | void {
  const rows = Object.entries(body.tables).map(([table, copy]) => ({ table, ...copy }));
  const copied = rows.reduce((sum, row) => sum + row.rows, 0);
  const written = rows.reduce((sum, row) => sum + row.written, 0);
  for (const row of rows) if (row.skipped > 0) app.io.note(`${row.table}: ${row.skipped} not copied — ${row.skipped_reason}.`);
  for (const row of rows) {
    if (!row.files) continue;
    const { copied: placed, present, missing } = row.files;
    if (placed + present + missing > 0) app.io.note(`${row.table}: files ${placed} copied, ${present} already there${missing > 0 ? `, ${missing} missing from the source (their rows were copied as they are)` : ''}.`);
  }
  app.io.note(
    written === 0 && copied > 0
      ? `${body.to} already held all ${copied} rows of ${body.from}: nothing changed.`
      : `Copied ${copied} rows of ${body.from} into ${body.to}${written < copied ? ` (${written} written, ${copied - written} already there as they are)` : ''}.`,
  );
  return printTable(app.io, rows, [
    { header: 'Table', value: (row) => row.table },
    { header: 'Rows', value: (row) => row.rows },
    { header: 'Written', value: (row) => row.written },
    { header: 'Skipped', value: (row) => row.skipped },
  ]);
}
