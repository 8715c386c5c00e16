/**
 * `engine world advance <span>` and `engine alerts evaluate`: moving the sample world's clock and
 * running an alert evaluation cycle on the local data dir.
 */
import type { Command } from 'commander';
import { DURATION_FORMS, formatDuration, parseDuration } from '../../../core/duration.js';
import type { CliApp } from '../../app.js';
import { usageError } from '../../../core/client-errors.js';
import { examples } from '../../help.js';
import { printJson, printRecord } from '../../output.js';
import { MAX_ADVANCE_MS, MIN_ADVANCE_MS } from '../../../engine/platform/simulation.js';
import { withLocalEngine } from './local-engine.js';


export function registerWorldClock(engine: Command, app: CliApp): void {
  const world = engine
    .command('world')
    .description('The sample world\'s clock: move it forward so videos publish, channels grow and appear')
    .addHelpText('before', examples(['tubekit engine world advance 1d', 'tubekit engine status            # world_time']));

  world
    .command('advance <span>')
    .description('Move world time forward (1d, 6h, 90m, 1d12h, 2w; at most 366 days at once), then evaluate alerts')
    .addHelpText(
      'before',
      examples([
        'tubekit engine world advance 1d',
        'tubekit engine world advance 6h --json | jq .alerts.new_channels',
        'tubekit engine world advance 2w && tubekit alerts triggered',
      ]),
    )
    .action(async (span: string) => {
      const ms = parseDuration(span);
      if (ms === null) throw usageError(`"${span}" is not a span of world time: use ${DURATION_FORMS}.`);
      if (ms < MIN_ADVANCE_MS || ms > MAX_ADVANCE_MS) throw usageError(`The world advances by 1 minute to 366 days at a time, not ${formatDuration(ms)}.`, 'Advance several times for more.');
      const spinner = await app.io.spinner(`Advancing the world by ${formatDuration(ms)}…`);
      const report = await withLocalEngine(app, (local) => local.advanceWorld(ms)).finally(() => spinner.stop());
      if (app.json) {
        printJson(app.io, report);
        return;
      }
      printRecord(app.io, [
        ['from', report.world.from],
        ['to', report.world.to],
        ['published_videos', report.world.published_videos],
        ['new_channels', report.world.new_channels],
        ['new_collab_videos', report.world.new_collab_videos],
        ['breakouts', report.world.breakouts],
        ['alerts_evaluated', report.alerts.alerts_evaluated],
        ['alerts_new_channels', report.alerts.new_channels],
      ]);
      if (report.alerts.new_channels > 0) app.io.note('See them with: tubekit alerts triggered');
    });

  const alerts = engine
    .command('alerts')
    .description('Alert evaluation on the local data dir')
    .addHelpText('before', examples(['tubekit engine alerts evaluate']));

  alerts
    .command('evaluate')
    .description('Run one evaluation cycle now: every alert not yet evaluated at the current world time (or edited since)')
    .addHelpText('before', examples(['tubekit engine alerts evaluate', 'tubekit engine alerts evaluate --json | jq .new_channels']))
    .action(async () => {
      const report = await withLocalEngine(app, (local) => local.evaluateAlerts('command'));
      if (app.json) printJson(app.io, report);
      else printRecord(app.io, Object.entries(report));
    });
}
