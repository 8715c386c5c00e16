/** `engine seed` and `engine sample channels`: the sample world the embedded engine reads. */
import type { Command } from 'commander';
import type { CliApp } from '../../app.js';
import { parseWholeNumber } from '../../arguments.js';
import { examples } from '../../help.js';
import { count, printJson, printRecord, printTable } from '../../output.js';
import { withLocalEngine } from './local-engine.js';

export function registerWorld(engine: Command, app: CliApp): void {
  engine
    .command('seed')
    .description('Rebuild the sample world from a seed and a size')
    .addHelpText('before', examples(['tubekit engine seed --channels 20000 --seed 7', 'tubekit engine seed                       # back to the default world']))
    .option('--channels <n>', 'number of channels', '3000')
    .option('--seed <s>', 'seed', '1')
    .action(async (options: { channels: string; seed: string }) => {
      const channels = parseWholeNumber(options.channels, '--channels', { min: 10, max: 2_000_000 });
      const seed = /^\d+$/.test(options.seed) ? Number(options.seed) : options.seed;
      const spinner = await app.io.spinner(`Generating ${channels} channels…`);
      const info = await withLocalEngine(app, (local) => local.reseedWorld({ seed: seed as number, channels }).info());
      spinner.stop();
      if (app.json) printJson(app.io, info);
      else printRecord(app.io, Object.entries(info));
    });

  engine
    .command('sample')
    .description('Things to try offline')
    .addHelpText('before', examples(['tubekit engine sample channels --limit 5']))
    .command('channels')
    .description('List sample-world channels (ids, handles, titles) to try commands with')
    .addHelpText('before', examples(['tubekit engine sample channels --limit 5', 'tubekit engine sample channels --limit 3 | cut -f2 | tubekit resolve -']))
    .option('--limit <n>', 'how many', '20')
    .action(async (options: { limit: string }) => {
      const limit = parseWholeNumber(options.limit, '--limit', { min: 1, max: 1000 });
      const channels = await withLocalEngine(app, (local) => local.platform.sampleChannels(limit));
      const rows = channels.map((channel) => ({
        channel_id: channel.channel_id,
        handle: channel.handle,
        title: channel.title,
        language: channel.language,
        category: channel.category,
        content_type: channel.content_type,
        subscribers: channel.subscribers,
      }));
      if (app.json) printJson(app.io, { channels: rows });
      else
        await printTable(app.io, rows, [
          { header: 'Channel', value: (row) => row.channel_id },
          { header: 'Handle', value: (row) => row.handle },
          { header: 'Title', value: (row) => row.title },
          { header: 'Language', value: (row) => row.language },
          { header: 'Type', value: (row) => row.content_type },
          { header: 'Subscribers', value: (row) => count(app.io, row.subscribers) },
        ]);
    });
}
