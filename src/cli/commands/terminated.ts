import { Option, type Command } from 'commander';
import type { RouteInput, RouteOutput } from '../../core/routes.js';
import { TERMINATED_MAX_PAGE as MAX_PAGE, TERMINATED_MAX_PER_PAGE as MAX_PER_PAGE, TERMINATED_SORTS } from '../../core/schemas/research.js';
import type { CliApp } from '../app.js';
import { parseWholeNumber } from '../arguments.js';
import { usageError } from '../../core/client-errors.js';
import { examples, withExamples } from '../help.js';
import { count, printRecord, printTable, signed } from '../output.js';
import { pageInput, printListing } from '../paging.js';

type Body = RouteOutput<'terminated.search'>;
type Channel = Body['channels'][number];
type Input = RouteInput<'terminated.search'>;

/** Bounded fields: flag stem (`--min-subs`, `--max-subs`; parameters `min_subs`, `max_subs`) and what is counted. */
const BOUNDED: ReadonlyArray<[stem: string, what: string]> = [
  ['subs', 'subscribers'],
  ['views', 'total views'],
  ['avg-views', 'average views per video'],
  ['age', 'days from first upload to termination'],
  ['uploads', 'videos'],
  ['views-24h', 'views gained in the 24h before termination'],
  ['views-48h', 'views gained in the 48h before termination'],
];
const BOUNDS = BOUNDED.flatMap(([stem]) => [`min-${stem}`, `max-${stem}`]);
const optionKey = (flag: string) => flag.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

interface TerminatedOptions {
  languages?: string;
  sort?: string;
  monetized?: 'yes' | 'no';
  page?: string;
  perPage?: string;
  all?: boolean;
  [bound: string]: string | boolean | undefined;
}

export function registerTerminated(program: Command, app: CliApp): void {
  const command = withExamples(
    program
      .command('terminated')
      .description('Search terminated and deleted channels by keyword, with filters and sorts')
      .argument('<keywords...>', 'words to find in channel names and video titles; commas separate keywords (any may match)')
      .option('--languages <codes>', 'comma-separated language codes or names: en,es or English,Spanish')
      .addOption(new Option('--sort <sort>', 'order of the results (similarity: best match first)').choices(TERMINATED_SORTS).default('date_desc'))
      .addOption(new Option('--monetized <yes|no>', 'only channels that were (yes) or were not (no) monetized').choices(['yes', 'no']))
      .option('--page <n>', `page, 1 to ${MAX_PAGE}`)
      .option('--per-page <n>', `channels per page, 1 to ${MAX_PER_PAGE} (default 20; 50 with --all)`)
      .option('--all', `every page (up to ${MAX_PAGE}): with --json, one body holding every channel`),
    [
      'tubekit terminated cooking',
      'tubekit terminated cooking, gaming --sort subs_desc --min-subs 100000',
      'tubekit terminated lofi --languages en,es --monetized yes --per-page 50',
      'tubekit terminated "sourdough bread" --sort similarity_desc --json | jq ".channels[].channel_title"',
      'tubekit terminated gaming --all --json | jq -r ".channels[].channel_id"',
    ],
  );
  command
    .command('show <channel_id>')
    .description('The record of one terminated channel: its name and figures at termination, and its top videos')
    .addHelpText('before', examples(['tubekit terminated show UCxxxxxxxxxxxxxxxxxxxxxx', 'tubekit terminated cooking --per-page 1 --jq \'.channels[0].channel_id\' | xargs tubekit terminated show']))
    .action(async (channelId: string) => {
      const body = await app.call('terminated.show', { channel_id: channelId.trim() });
      await app.render(body, (b) => printTerminatedRecord(app, b.channel));
    });
  for (const [stem, what] of BOUNDED) {
    command.option(`--min-${stem} <n>`, `at least this many ${what}`);
    command.option(`--max-${stem} <n>`, `at most this many ${what}`);
  }
  command.action(async (words: string[], options: TerminatedOptions) => {
    const { page, ...input } = searchInput(words, options);
    await printListing<Body, Channel>(app, { all: options.all, page: page as number | undefined }, (at) => app.call('terminated.search', { ...input, page: at }), {
      key: 'channels',
      maxPage: MAX_PAGE,
      perPage: input.per_page as number | undefined,
      async print(rows, body) {
        await printTable(app.io, rows, columns(app));
        if (!options.all) noteOfPage(app, body);
      },
    });
  });
}

/** The request, checked: bad numbers and pages exit 2 before any call. */
function searchInput(words: string[], options: TerminatedOptions): Input {
  const q = words.join(' ').trim();
  if (!q.replace(/[,\s]/g, '')) throw usageError('Give at least one keyword: tubekit terminated cooking');
  const input: Record<string, unknown> = { q, sort: options.sort ?? 'date_desc', ...pageInput(options, { maxPage: MAX_PAGE, maxPerPage: MAX_PER_PAGE }) };
  if (options.languages !== undefined) input.languages = options.languages;
  if (options.monetized !== undefined) input.monetized = options.monetized;
  for (const flag of BOUNDS) {
    const value = options[optionKey(flag)];
    if (typeof value === 'string') input[flag.replace(/-/g, '_')] = parseWholeNumber(value, `--${flag}`);
  }
  return input as Input;
}

/** Where this page is in the results, from the fields the server sent (the spec shows none of them). */
function noteOfPage(app: CliApp, body: Partial<Body>): void {
  const parts: string[] = [];
  if (body.page !== undefined) parts.push(body.total_pages === undefined ? `Page ${body.page}` : `Page ${body.page} of ${Math.max(1, body.total_pages)}`);
  if (body.total !== undefined) parts.push(`${body.total.toLocaleString('en-US')} matching channel${body.total === 1 ? '' : 's'}`);
  if (parts.length > 0) app.io.note(`${parts.join(': ')}.`);
}

/** Unknown (a live store's figure it never had) stays blank, like an unknown count. */
const yesNo = (value: boolean | null | undefined) => (value === null || value === undefined ? '' : value ? 'yes' : 'no');

async function printTerminatedRecord(app: CliApp, channel: Channel): Promise<void> {
  const { io } = app;
  printRecord(io, [
    ['channel', channel.channel_id],
    ['name', channel.channel_title],
    ['terminated', `${channel.terminated_date} (${channel.terminated_days_ago === 1 ? '1 day' : `${channel.terminated_days_ago} days`} ago)`],
    ['first_upload', channel.first_upload_date],
    ['subscribers', count(io, channel.subscriber_count)],
    ['views', count(io, channel.view_count)],
    ['videos', channel.total_videos],
    ['avg_views', count(io, channel.avg_views_per_video)],
    ['language', channel.primary_language],
    ['monetized', yesNo(channel.monetized)],
    ['low_quality', yesNo(channel.is_low_quality)],
    ['views_24h', signed(io, channel.view_increase_24h)],
    ['views_48h', signed(io, channel.view_increase_48h)],
    ['subs_24h', signed(io, channel.sub_increase_24h)],
    ['subs_48h', signed(io, channel.sub_increase_48h)],
  ]);
  if ((channel.recent_videos ?? []).length === 0) return;
  io.out('');
  await printTable(io, channel.recent_videos, [
    { header: 'Video', value: (video) => video.video_id },
    { header: 'Views', value: (video) => count(io, video.view_count) },
    { header: 'Title', value: (video) => video.title },
    { header: 'URL', value: (video) => video.url },
  ]);
}

function columns(app: CliApp) {
  const { io } = app;
  return [
    { header: 'Channel', value: (row: Channel) => row.channel_id },
    { header: 'Name', value: (row: Channel) => row.channel_title },
    { header: 'Subscribers', value: (row: Channel) => count(io, row.subscriber_count) },
    { header: 'Views', value: (row: Channel) => count(io, row.view_count) },
    { header: 'Videos', value: (row: Channel) => row.total_videos },
    { header: 'Lang', value: (row: Channel) => row.primary_language },
    { header: 'Monetized', value: (row: Channel) => yesNo(row.monetized) },
    { header: 'Terminated', value: (row: Channel) => row.terminated_date },
    { header: 'Views 24h', value: (row: Channel) => signed(io, row.view_increase_24h) },
    { header: 'Match', value: (row: Channel) => row.similarity_score },
  ];
}
