/** `engine seed` and `engine sample channels`: the sample world the embedded engine reads. */
import type { Command } from 'commander';
import { CHANNEL_INPUT_FORMS, legacyChannelUrl, parseChannelRef } from '../../../core/channel-input.js';
import { ExitCode } from '../../../core/exit-codes.js';
import { DEFAULT_WORLD_TERMINATED } from '../../../engine/platform/factory/open-platform.js';
import type { PlatformProvider } from '../../../engine/platform/platform.js';
import { requireSimulation } from '../../../engine/platform/simulation.js';
import { CliError, usageError } from '../../../core/client-errors.js';
import type { CliApp } from '../../app.js';
import { parseWholeNumber } from '../../arguments.js';
import { examples } from '../../help.js';
import { isIsoDate } from '../../../engine/dates.js';
import { count, printJson, printRecord, printTable } from '../../output.js';
import { withLocalEngine } from './local-engine.js';

export function registerWorld(engine: Command, app: CliApp): void {
  engine
    .command('seed')
    .description('Rebuild the sample world from a seed and a size')
    .addHelpText(
      'before',
      examples([
        'tubekit engine seed --channels 20000 --seed 7',
        'tubekit engine seed --terminated 1000000      # a million terminated channels (about a minute)',
        'tubekit engine seed --reference-date 2026-06-15   # the same world on any day (bug reports)',
        'tubekit engine seed                       # back to the default world',
      ]),
    )
    .option('--channels <n>', 'number of channels', '3000')
    .option('--terminated <n>', `number of terminated channels, searched by \`tubekit terminated\` (default ${DEFAULT_WORLD_TERMINATED})`)
    .option('--seed <s>', 'seed', '1')
    .option('--reference-date <date>', 'the day the world is generated for, YYYY-MM-DD (default: TUBEKIT_WORLD_DATE, else today)')
    .action(async (options: { channels: string; terminated?: string; seed: string; referenceDate?: string }) => {
      const channels = parseWholeNumber(options.channels, '--channels', { min: 10, max: 2_000_000 });
      const terminated = parseWholeNumber(options.terminated ?? String(DEFAULT_WORLD_TERMINATED), '--terminated', { min: 0, max: 2_000_000 });
      const seed = /^\d+$/.test(options.seed) ? Number(options.seed) : options.seed;
      const referenceDate = options.referenceDate;
      if (referenceDate !== undefined && (!isIsoDate(referenceDate) || referenceDate < '2007-01-01')) {
        throw usageError(`--reference-date: "${referenceDate}" is not a date the world can start on`, 'Give a date from 2007-01-01 on as YYYY-MM-DD.');
      }
      const spinner = await app.io.spinner(`Generating ${channels} channels and ${terminated} terminated ones…`);
      const info = await withLocalEngine(app, async (local) => requireSimulation(await local.reseedWorld({ seed, channels, terminated, ...(referenceDate ? { referenceDate } : {}) })).info());
      spinner.stop();
      if (app.json) printJson(app.io, info);
      else printRecord(app.io, Object.entries(info));
    });

  const sample = engine
    .command('sample')
    .description('Things to try offline: channels and videos of the sample world')
    .addHelpText('before', examples(['tubekit engine sample channels --limit 5', 'tubekit engine sample videos --limit 5']));

  sample
    .command('channels')
    .description('List sample-world channels (ids, handles, titles) to try commands with')
    .addHelpText('before', examples(['tubekit engine sample channels --limit 5', 'tubekit engine sample channels --limit 3 | cut -f2 | tubekit resolve -']))
    .option('--limit <n>', 'how many', '20')
    .action(async (options: { limit: string }) => {
      const limit = parseWholeNumber(options.limit, '--limit', { min: 1, max: 1000 });
      const channels = await withLocalEngine(app, async (local) => requireSimulation(await local.platform(), 'engine sample channels').sampleChannels(limit));
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

  sample
    .command('videos')
    .description('List sample-world videos (watch and Shorts URLs) to try downloads and analysis with')
    .addHelpText(
      'before',
      examples([
        'tubekit engine sample videos --limit 5',
        'tubekit engine sample videos --channel @honestrunning',
        'tubekit engine sample videos --limit 3 --json | jq -r \'.videos[].url\'',
      ]),
    )
    .option('--limit <n>', 'how many', '20')
    .option('--channel <channel>', 'videos of one channel (@handle, channel URL or UC… id), upcoming ones included')
    .action(async (options: { limit: string; channel?: string }) => {
      const limit = parseWholeNumber(options.limit, '--limit', { min: 1, max: 1000 });
      const videos = await withLocalEngine(app, async (local) => {
        const platform = await local.platform();
        const world = requireSimulation(platform, 'engine sample videos');
        if (options.channel === undefined) return world.sampleVideos(limit);
        return world.sampleVideos(limit, await sampleChannelArg(platform, options.channel));
      });
      if (app.json) printJson(app.io, { videos });
      else
        await printTable(app.io, videos, [
          { header: 'Video', value: (row) => row.video_id },
          { header: 'Kind', value: (row) => row.kind },
          { header: 'Length', value: (row) => duration(row.duration_seconds) },
          { header: 'Captions', value: (row) => row.captions ?? 'none' },
          { header: 'Title', value: (row) => row.title },
          { header: 'URL', value: (row) => row.url },
        ]);
    });
}

/** A channel of the local sample world by id, handle or channel URL, or a usage error naming it. */
async function sampleChannelArg(platform: PlatformProvider, input: string): Promise<string> {
  const ref = parseChannelRef(input);
  const reference = ref?.kind === 'handle' ? `@${ref.handle}` : ref?.kind === 'legacy' ? legacyChannelUrl(ref) : null;
  const channel = ref?.kind === 'id' ? await platform.channelById(ref.channelId) : reference ? await platform.resolveHandle(reference) : null;
  if (!ref) throw usageError(`--channel must be ${CHANNEL_INPUT_FORMS}, not "${input}".`);
  if (!channel) throw new CliError(`No channel ${input} in the sample world.`, ExitCode.notFound, 'List some with: tubekit engine sample channels');
  return channel.channel_id;
}

/** 1:05:09 or 4:07 or 0:42. */
function duration(seconds: number): string {
  const whole = Math.round(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
