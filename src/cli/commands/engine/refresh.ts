/**
 * `engine refresh`: one refresh sweep of a live data dir now — the watched channels that are due
 * are read again (saved channels, channels of enabled alerts, channels seen in collabs), then an
 * alert cycle runs. Prints one row per channel read; `--every` sets how often each is due.
 */
import type { Command } from 'commander';
import { DURATION_FORMS, formatDuration, parseDuration } from '../../../core/duration.js';
import type { CliApp } from '../../app.js';
import { parseWholeNumber } from '../../arguments.js';
import { usageError } from '../../../core/client-errors.js';
import { examples } from '../../help.js';
import { count, printJson, printTable } from '../../output.js';
import { withLocalEngine } from './local-engine.js';

export function registerRefresh(engine: Command, app: CliApp): void {
  engine
    .command('refresh')
    .description('Read the watched channels of a live data dir that are due again now (each every 6 hours by default), then evaluate alerts')
    .addHelpText(
      'before',
      examples([
        'tubekit engine refresh',
        'tubekit engine refresh --json | jq \'.read[] | select(.state != "active")\'',
        'tubekit engine refresh --every 3h            # re-read each watched channel every 3 hours from now on',
        'tubekit engine refresh --limit 50',
      ]),
    )
    .option('--every <span>', 'store how often each watched channel is read again (15m to 7d; default 6h), then sweep')
    .option('--limit <n>', 'read at most this many channels in this sweep (the rest stay due)', '500')
    .action(async (flags: { every?: string; limit: string }) => {
      const limit = parseWholeNumber(flags.limit, '--limit', { min: 1, max: 100_000 });
      const every = flags.every === undefined ? undefined : parseDuration(flags.every);
      if (every === null) throw usageError(`--every: "${flags.every}" is not ${DURATION_FORMS}.`);
      const schedule = await import('../../../engine/features/refresh/schedule-setting.js');
      if (every !== undefined && (every < schedule.MIN_REFRESH_INTERVAL_MS || every > schedule.MAX_REFRESH_INTERVAL_MS)) {
        throw usageError(`--every: each channel is read again every 15 minutes to 7 days, not ${formatDuration(every)}.`);
      }
      const spinner = await app.io.spinner('Reading the watched channels that are due…');
      const report = await withLocalEngine(app, async (local) => {
        if (every !== undefined) schedule.setRefreshInterval(local.settings, every);
        return local.refresh({ reason: 'command', limit });
      }).finally(() => spinner.stop());
      if (app.json) {
        printJson(app.io, report);
        return;
      }
      await printTable(app.io, report.read, [
        { header: 'Channel', value: (row) => row.channel_id },
        { header: 'State', value: (row) => row.state },
        { header: 'Title', value: (row) => row.title },
        { header: 'Subscribers', value: (row) => count(app.io, row.subscribers) },
        { header: 'Views', value: (row) => count(app.io, row.total_views) },
        { header: 'Uploads', value: (row) => row.uploads },
        { header: 'Collabs', value: (row) => row.collab_videos },
        { header: 'Error', value: (row) => ('error' in row ? row.error : '') },
      ]);
      const gone = report.terminations.channel_ids.length;
      app.io.note(
        `Read ${report.read.length} of ${report.due} due (${report.watched} watched, each every ${report.interval}); ${report.left} left for the next sweep.` +
          (gone > 0 ? ` ${gone} found terminated or deleted.` : '') +
          ` Alerts: ${report.alerts.alerts_evaluated} evaluated, ${report.alerts.new_channels} new channel(s).`,
      );
    });
}
