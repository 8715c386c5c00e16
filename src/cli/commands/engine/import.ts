/** `engine import terminated <file|->`: records from elsewhere into a live data dir's index. */
import fs from 'node:fs';
import type { Command } from 'commander';
import { ExitCode } from '../../../core/exit-codes.js';
import type { CliApp } from '../../app.js';
import { examples, withExamples } from '../../help.js';
import { printJson, printRecord } from '../../output.js';
import { withLocalEngine } from './local-engine.js';

export function registerImport(engine: Command, app: CliApp): void {
  const group = withExamples(engine.command('import').description('Load records from elsewhere into a live data dir\'s index'), [
    'tubekit --data-dir ~/tubekit-live engine import terminated channels.jsonl',
  ]);
  group
    .command('terminated <file>')
    .description('Load terminated channels, one JSON object a line with the fields `tubekit terminated --json` prints (- reads stdin)')
    .option('--dry-run', 'check every line and count what would be loaded; change nothing')
    .addHelpText(
      'before',
      examples([
        'tubekit --data-dir ~/tubekit-live engine import terminated channels.jsonl',
        'tubekit --data-dir ~/tubekit-live engine import terminated channels.jsonl --dry-run --json',
        'jq -c \'.channels[]\' saved-search.json | tubekit --data-dir ~/tubekit-live engine import terminated -',
      ]),
    )
    .action(async (file: string, options: { dryRun?: boolean }) => {
      // Opened before the engine: a path that is not a readable file is the user's to fix (exit 2).
      const input = file === '-' ? app.io.streams.stdin : fs.createReadStream('', { fd: fs.openSync(file, 'r') });
      const { importTerminated } = await import('../../../engine/features/terminated/import/import-terminated.js');
      const summary = await withLocalEngine(app, (local) =>
        importTerminated(local, input, {
          dryRun: options.dryRun,
          // Each refused line as it is read; with --json they are in the body (the first 100).
          onRefused: (refused) => {
            if (!app.json) app.io.error(`line ${refused.line}: ${refused.error}`);
          },
        }),
      );
      if (app.json) printJson(app.io, summary);
      else {
        printRecord(app.io, [
          ['loaded', summary.loaded],
          ['updated', summary.updated],
          ['refused', summary.refused],
        ]);
        const would = summary.dry_run ? 'would be ' : '';
        app.io.note(
          `${summary.dry_run ? 'Dry run, nothing changed: ' : ''}${summary.loaded} channel${summary.loaded === 1 ? '' : 's'} ${would}loaded, ${summary.updated} ${would}updated` +
            (summary.refused > 0 ? `; ${summary.refused} line${summary.refused === 1 ? '' : 's'} refused (above), nothing of them loaded.` : '.'),
        );
      }
      if (summary.refused > 0) process.exitCode = ExitCode.usage;
    });
}
