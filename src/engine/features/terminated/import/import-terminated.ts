/**
 * `tubekit engine import terminated <file.jsonl|->`: terminated channels from any source a user
 * has, into the live data dir's store (index/terminated/live-*.ts), one JSON object a line
 * (import-line.ts). Each line is checked on its own: a bad line is reported with its number and
 * what is wrong and loads nothing; good lines load. The file is streamed and loaded in
 * transactions of BATCH lines, so a million lines take no more memory than a few thousand.
 *
 * A channel already stored (or earlier in the file) is updated as recordTerminatedChannels does,
 * so loading the same file twice changes nothing. `dryRun` checks every line and counts what
 * would be loaded and updated, and writes nothing.
 *
 * The sample platform's terminated channels are generated from the world's seed: importing into
 * a sample data dir is refused (a 400 naming the platform), so real records never mix with the
 * sample world's, nor vanish when it is regenerated.
 */
import { badRequest } from '../../../../core/errors.js';
import type { EngineContext } from '../../../context.js';
import type { TerminatedEntry } from '../../../index/terminated/live-store.js';
import { dataDirPlatform } from '../../../platform/factory/open-platform.js';
import { checkLine } from './import-line.js';
import { readLines } from './line-reader.js';

/**
 * Lines per transaction. Bigger batches visit each index page fewer times (they are written in
 * key order): 10,000 loaded about 1.7× as fast as 2,000 side by side, and hold the write lock for
 * a second or two, well within other writers' busy timeout.
 */
export const BATCH = 10_000;
/** A line longer than this is refused unread (a channel's record is a few KB). */
export const MAX_LINE_BYTES = 1024 * 1024;
/** Refused lines listed in the summary (all are reported to `onRefused`). */
export const ERRORS_LISTED = 100;

export interface RefusedLine {
  line: number;
  error: string;
}

export interface ImportSummary {
  dry_run: boolean;
  /** Lines read, blank ones aside. */
  lines: number;
  /** Channels new to the store (or that would be, with dry_run). */
  loaded: number;
  /** Channels already stored, or earlier in the file, updated. */
  updated: number;
  refused: number;
  /** The first ERRORS_LISTED refused lines. */
  errors: RefusedLine[];
}

export interface ImportOptions {
  dryRun?: boolean;
  /** Told of every refused line, as it is read. */
  onRefused?: (refused: RefusedLine) => void;
}

export async function importTerminated(engine: EngineContext, input: AsyncIterable<Buffer | string>, options: ImportOptions = {}): Promise<ImportSummary> {
  const platform = dataDirPlatform(engine.localSettings);
  if (platform !== 'live') {
    throw badRequest(
      `This data dir uses the ${platform} platform, whose terminated channels are generated from the sample world's seed; imported channels go to a live data dir.`,
      'Import into a data dir of the live platform: `tubekit --data-dir <dir> engine platform live`, then `tubekit --data-dir <dir> engine import terminated <file>`. (For more sample channels: `tubekit engine seed --terminated <n>`.)',
    );
  }
  const summary: ImportSummary = { dry_run: Boolean(options.dryRun), lines: 0, loaded: 0, updated: 0, refused: 0, errors: [] };
  const sink = options.dryRun ? dryRunSink(engine) : storeSink(engine);
  const refuse = (refused: RefusedLine) => {
    summary.refused += 1;
    if (summary.errors.length < ERRORS_LISTED) summary.errors.push(refused);
    options.onRefused?.(refused);
  };
  let batch: TerminatedEntry[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const written = await sink(batch);
    summary.loaded += written.loaded;
    summary.updated += written.updated;
    batch = [];
  };
  try {
    for await (const read of readLines(input, MAX_LINE_BYTES)) {
      if ('problem' in read) {
        summary.lines += 1;
        refuse({ line: read.number, error: read.problem });
        continue;
      }
      if (read.text.trim() === '') continue;
      summary.lines += 1;
      const checked = checkLine(read.text, engine.clock.now());
      if ('error' in checked) refuse({ line: read.number, error: checked.error });
      else batch.push(checked.entry);
      if (batch.length === BATCH) await flush();
    }
    await flush();
  } finally {
    if (options.dryRun) engine.db.exec('DROP TABLE IF EXISTS temp.import_seen');
  }
  return summary;
}

type Sink = (batch: TerminatedEntry[]) => Promise<{ loaded: number; updated: number }>;

/** One transaction a batch, in the engine's live terminated store (the data dir's SQLite or the fleet's PostgreSQL). */
function storeSink(engine: EngineContext): Sink {
  return async (batch) => (await engine.liveTerminatedStore()).write(batch);
}

/**
 * Counts as the store would, writing nothing to the store: only a temporary list of the ids seen
 * in the data dir's SQLite (so a duplicate in the file counts as an update), and not even the
 * store's empty tables.
 */
function dryRunSink(engine: EngineContext): Sink {
  engine.db.exec('DROP TABLE IF EXISTS temp.import_seen; CREATE TEMP TABLE import_seen (channel_id TEXT PRIMARY KEY) WITHOUT ROWID');
  const see = engine.db.prepare('INSERT OR IGNORE INTO temp.import_seen (channel_id) VALUES (?)');
  return async (batch) => {
    const firstInFile = engine.db.transaction(() => batch.filter((entry) => see.run(entry.channel_id).changes === 1).map((entry) => entry.channel_id))();
    const stored = await (await engine.liveTerminatedStore()).known(firstInFile);
    const loaded = firstInFile.filter((id) => !stored.has(id)).length;
    return { loaded, updated: batch.length - loaded };
  };
}
