/** `tubekit engine migrate`: brings a fleet's PostgreSQL store to this version's schema. */
import type { Command } from 'commander';
import type { CliApp } from '../../app.js';
import { usageError } from '../../../core/client-errors.js';
import { examples } from '../../help.js';
import { printJson, printRecord } from '../../output.js';

export function registerMigrate(engine: Command, app: CliApp): void {
  engine
    .command('migrate')
    .description("Apply the store's pending migrations (serve migrates only an empty database, or with --migrate); safe while other processes start")
    .addHelpText('before', examples([
      'tubekit engine migrate --store postgres://tubekit@db.internal/tubekit',
      'TUBEKIT_STORE=postgres://tubekit@db.internal/tubekit tubekit engine migrate --json',
    ]))
    .action(async () => {
      const location = app.settings.store;
      if (location.kind !== 'postgres') {
        throw usageError(
          'engine migrate acts on a fleet store: the data dir\'s SQLite file migrates itself whenever it is opened.',
          'Name the database: --store postgres://user@host/db (or TUBEKIT_STORE).',
        );
      }
      const { openFleetStore } = await import('../../../engine/store/open-store.js');
      const { store, migration } = await openFleetStore(location, { migrations: 'apply' });
      await store.close();
      const report = { store: location.description, from_version: migration!.from, to_version: migration!.to, applied: migration!.applied, operator_account_created: migration!.made === true };
      if (app.json) printJson(app.io, report);
      else {
        printRecord(app.io, Object.entries({ store: report.store, from_version: report.from_version, to_version: report.to_version }));
        app.io.note(report.applied.length === 0 ? 'Nothing to apply: the store is up to date.' : `Applied ${report.applied.map((entry) => `${entry.version} (${entry.name})`).join(', ')}.`);
        if (report.operator_account_created) app.io.note("Made the fleet's operator account: every machine's default key joins it.");
      }
    });
}
