import { Option, type Command } from 'commander';
import type { RouteOutput } from '../../core/routes.js';
import type { CollabVideo } from '../../core/schemas/collabs.js';
import type { CliApp } from '../app.js';
import { parseWholeNumber, resolveChannelArg } from '../arguments.js';
import { usageError } from '../../core/client-errors.js';
import { examples, withExamples } from '../help.js';
import { count, printRecord, printTable, signed, type Column } from '../output.js';
import { pageInput, printListing, type PageOptions } from '../paging.js';

const videoColumns = (app: CliApp): Column<CollabVideo>[] => [
  { header: 'Published', value: (video) => video.published_at },
  { header: 'Video', value: (video) => video.video_id },
  { header: 'Views', value: (video) => (video.upcoming ? 'upcoming' : count(app.io, video.views)) },
  { header: 'Host', value: (video) => video.host.handle ?? video.host.channel_id },
  { header: 'With', value: (video) => video.collaborators.map((channel) => channel.handle ?? channel.channel_id).join(', ') },
  { header: 'Title', value: (video) => video.title },
];

type CollabRanking = RouteOutput<'collabs.top'>['channels'][number];

/**
 * What the ranking measured, in words, from the fields the server sent: the spec names only
 * `computed_at` and `growth_through`, so each part is said only when it is there.
 */
function growthNote(body: Partial<Pick<RouteOutput<'collabs.top'>, 'metric' | 'period' | 'growth_through' | 'computed_at'>>): string | undefined {
  const parts = [
    body.metric === undefined ? 'Growth' : `Growth of ${body.metric}`,
    body.period === undefined ? '' : ` over ${body.period} days`,
    body.growth_through === undefined ? '' : ` through ${body.growth_through}`,
    body.computed_at === undefined ? '' : ` (computed at ${body.computed_at}, world time)`,
  ];
  return parts.slice(1).some(Boolean) ? `${parts.join('')}.` : undefined;
}

const optionalNumber = (value: string | undefined, flag: string, bounds: { min?: number; max?: number } = {}) =>
  value === undefined ? undefined : parseWholeNumber(value, flag, bounds);

/** Channels given as ids, handles or URLs, comma-separated, as ids (resolved one by one). */
async function channelList(app: CliApp, value: string | undefined): Promise<string[] | undefined> {
  if (value === undefined) return undefined;
  const inputs = value.split(',').map((part) => part.trim()).filter(Boolean);
  if (inputs.length === 0) throw usageError('--channels needs at least one channel.');
  if (inputs.length > 50) throw usageError(`--channels takes at most 50 channels, not ${inputs.length}.`);
  const ids: string[] = [];
  for (const input of inputs) ids.push(await resolveChannelArg(app, input));
  return ids;
}

export function registerCollabs(program: Command, app: CliApp): void {
  const collabs = withExamples(program.command('collabs').description('Channels that appear together on videos: rankings, one channel\'s partners, the newest collab videos'), [
    'tubekit collabs top --metric views --period 30',
    'tubekit collabs channel @ellalol',
    'tubekit collabs feed --days 30 --sort views',
  ]);

  collabs
    .command('top')
    .description('Fastest-growing channels that do collabs (growth refreshed every 6 hours of world time)')
    .addHelpText(
      'before',
      examples([
        'tubekit collabs top',
        'tubekit collabs top --sort pct --min-subs 10000 --language English',
        'tubekit collabs top --metric views --period 30 --min-partners 3 --active-days 14',
        'tubekit collabs top --all --json | jq -r \'.channels[].handle\'',
      ]),
    )
    .addOption(new Option('--metric <metric>', 'subscribers or views').choices(['subs', 'views']))
    .addOption(new Option('--period <days>', 'growth over 7 or 30 days').choices(['7', '30']))
    .addOption(new Option('--sort <sort>', 'absolute gain, or gain as a percentage (counts channels of 1,000+ subscribers unless --min-subs)').choices(['gain', 'pct']))
    .option('--min-subs <n>', 'at least this many subscribers')
    .option('--max-subs <n>', 'at most this many subscribers')
    .option('--min-partners <n>', 'at least this many distinct collab partners (default 1)')
    .option('--active-days <n>', 'only channels with a collab published in the last N days')
    .option('--language <name>', 'primary language, e.g. English')
    .option('--page <n>', 'page, 1 to 50')
    .option('--per-page <n>', 'rows per page, 1 to 100 (default 25)')
    .option('--all', 'every page (up to the service\'s 50): with --json, one body holding every channel')
    .action(async (options: PageOptions & Record<string, string | undefined>) => {
      const paging = pageInput(options, { maxPage: 50, maxPerPage: 100 });
      const input = {
        metric: options.metric as 'subs' | 'views' | undefined,
        period: options.period === undefined ? undefined : (Number(options.period) as 7 | 30),
        sort: options.sort as 'gain' | 'pct' | undefined,
        min_subscribers: optionalNumber(options.minSubs, '--min-subs'),
        max_subscribers: optionalNumber(options.maxSubs, '--max-subs'),
        min_partners: optionalNumber(options.minPartners, '--min-partners', { min: 1 }),
        active_days: optionalNumber(options.activeDays, '--active-days', { min: 1 }),
        language: options.language,
        per_page: paging.per_page,
      };
      const columns: Column<CollabRanking>[] = [
        { header: 'Rank', value: (row) => row.rank },
        { header: 'Channel', value: (row) => row.channel_id },
        { header: 'Handle', value: (row) => row.handle },
        { header: 'Title', value: (row) => row.title },
        { header: 'Language', value: (row) => row.language },
        { header: 'Subscribers', value: (row) => count(app.io, row.subscribers) },
        { header: 'Growth', value: (row) => signed(app.io, row.growth) },
        { header: 'Growth %', value: (row) => row.growth_pct },
        { header: 'Partners', value: (row) => row.partners },
        { header: 'Collabs', value: (row) => row.collab_videos },
        { header: 'Latest collab', value: (row) => row.latest_collab_at },
      ];
      await printListing<RouteOutput<'collabs.top'>, CollabRanking>(
        app,
        { all: options.all, page: paging.page },
        (page) => app.call('collabs.top', { ...input, page }),
        {
          key: 'channels',
          maxPage: 50,
          perPage: paging.per_page,
          async print(rows, body) {
            await printTable(app.io, rows, columns);
            const note = growthNote(body);
            if (note) app.io.note(note);
          },
        },
      );
    });

  collabs
    .command('channel <channel>')
    .description('One channel\'s collab partners and collab videos, newest first (handles and URLs accepted)')
    .addHelpText(
      'before',
      examples([
        'tubekit collabs channel @ellalol',
        'tubekit collabs channel https://www.youtube.com/@ellalol --since-days 30 --limit 5',
        'tubekit collabs channel @ellalol --json | jq \'{checked, has_new_collab, upcoming_collabs}\'',
      ]),
    )
    .option('--since-days <n>', 'a collab published within this many days is new, 1 to 365 (default 7)')
    .option('--limit <n>', 'partners and videos shown, 1 to 100 (default 30)')
    .action(async (channel: string, options: { sinceDays?: string; limit?: string }) => {
      const sinceDays = optionalNumber(options.sinceDays, '--since-days', { min: 1, max: 365 });
      const limit = optionalNumber(options.limit, '--limit', { min: 1, max: 100 });
      const body = await app.call('collabs.channel', { channel_id: await resolveChannelArg(app, channel), since_days: sinceDays, limit });
      await app.render(body, async (b) => {
        printRecord(app.io, [
          ['channel', b.channel_id],
          ['handle', b.handle],
          ['title', b.title],
          ['checked', b.checked],
          ['scanned', b.scanned],
          ['has_new_collab', b.has_new_collab],
          ['upcoming_collabs', b.upcoming_collabs],
          ['total_partners', b.total_partners],
          ['total_videos', b.total_videos],
          ['growth', b.growth ? `subs ${b.growth.subs_7d} (7d) ${b.growth.subs_30d} (30d), views ${b.growth.views_7d} (7d) ${b.growth.views_30d} (30d), through ${b.growth.growth_through}` : null],
        ]);
        if (b.partners.length > 0) {
          app.io.out('');
          await printTable(app.io, b.partners, [
            { header: 'Partner', value: (partner) => partner.channel_id },
            { header: 'Handle', value: (partner) => partner.handle },
            { header: 'Title', value: (partner) => partner.title },
            { header: 'Joint videos', value: (partner) => partner.joint_videos },
            { header: 'Last joint video', value: (partner) => partner.last_joint_at },
          ]);
        }
        if (b.videos.length > 0) {
          app.io.out('');
          await printTable(app.io, b.videos, videoColumns(app));
        }
        if (!b.checked) app.io.note('Not checked: the collab crawler has not scanned this channel and no scanned channel lists it.');
      });
    });

  collabs
    .command('feed')
    .description('The newest collab videos across checked channels, or only those involving some channels')
    .addHelpText(
      'before',
      examples([
        'tubekit collabs feed',
        'tubekit collabs feed --days 30 --sort views --per-page 10',
        'tubekit collabs feed --channels @ellalol,@ethanstudio --days 90',
      ]),
    )
    .option('--days <n>', 'look back this many days of world time, 1 to 90 (default 7)')
    .addOption(new Option('--sort <sort>', 'newest first, or most viewed first').choices(['newest', 'views']))
    .option('--channels <list>', 'comma-separated channels (ids, handles or URLs; up to 50): only collabs involving any of them')
    .option('--page <n>', 'page, 1 to 50')
    .option('--per-page <n>', 'rows per page, 1 to 100 (default 25)')
    .option('--all', 'every page (up to the service\'s 50): with --json, one body holding every video')
    .action(async (options: PageOptions & { days?: string; sort?: string; channels?: string }) => {
      const paging = pageInput(options, { maxPage: 50, maxPerPage: 100 });
      const input = {
        days: optionalNumber(options.days, '--days', { min: 1, max: 90 }),
        sort: options.sort as 'newest' | 'views' | undefined,
        channel_ids: await channelList(app, options.channels),
        per_page: paging.per_page,
      };
      await printListing<RouteOutput<'collabs.feed'>, CollabVideo>(
        app,
        { all: options.all, page: paging.page },
        (page) => app.call('collabs.feed', { ...input, page }),
        { key: 'videos', maxPage: 50, perPage: paging.per_page, print: (rows) => printTable(app.io, rows, videoColumns(app)) },
      );
    });
}
