/** `engine platform [sample|live]`: which platform the data dir reads, the sample world or the live site. */
import type { Command } from 'commander';
import type { CliApp } from '../../app.js';
import { usageError } from '../../../core/client-errors.js';
import { examples } from '../../help.js';
import { printJson } from '../../output.js';
import { withLocalEngine } from './local-engine.js';

export function registerPlatform(engine: Command, app: CliApp): void {
  engine
    .command('platform [name]')
    .description('Show or set the data dir\'s platform: "sample" (the offline sample world) or "live" (the real site)')
    .addHelpText(
      'before',
      examples([
        'tubekit engine platform                              # show it',
        'tubekit --data-dir ~/tubekit-live engine platform live',
        'tubekit engine platform sample',
      ]),
    )
    .action(async (name: string | undefined) => {
      if (name !== undefined && name !== 'sample' && name !== 'live') {
        throw usageError(`Unknown platform "${name}".`, 'Use "sample" or "live".');
      }
      const { dataDirPlatform, switchPlatform } = await import('../../../engine/platform/factory/open-platform.js');
      const result = await withLocalEngine(app, (local) => (name ? switchPlatform(local, name) : { from: dataDirPlatform(local.localSettings), to: dataDirPlatform(local.localSettings), changed: false }));
      if (app.json) printJson(app.io, { platform: result.to, changed: result.changed });
      else if (result.changed) app.io.out(`${result.to} (was ${result.from})`);
      else app.io.out(result.to);
    });
}
