import { Option, type Command } from 'commander';
import type { RouteInput, RouteOutput } from '../../core/routes.js';
import type { CliApp } from '../app.js';
import { parseWholeNumber } from '../arguments.js';
import { usageError } from '../errors.js';
import { withExamples } from '../help.js';
import { count, printJson, printTable, signed } from '../output.js';

type Body = RouteOutput<'terminated.search'>;
type Channel = Body['channels'][number];
type Input = RouteInput<'terminated.search'>;

/** The API's limits, checked before any call so a typo exits 2 at once. */
const MAX_PAGE = 20;
const MAX_PER_PAGE = 50;
const SORT_FIELDS = ['subs', 'views', 'videos', 'age', 'views_24h', 'subs_24h', 'views_48h', 'date', 'similarity'];
const SORTS = SORT_FIELDS.flatMap((field) => [`${field}_desc`, `${field}_asc`]);

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
      .addOption(new Option('--sort <sort>', 'order of the results (similarity: best match first)').choices(SORTS).default('date_desc'))
      .addOption(new Option('--monetized <yes|no>', 'only channels that were (yes) or were not (no) monetized').choices(['yes', 'no']))
      .option('--page <n>', `page, 1 to ${MAX_PAGE}`)
      .option('--per-page <n>', `channels per page, 1 to ${MAX_PER_PAGE} (default 20; 50 with --all)`)
      .option('--all', `every page (up to ${MAX_PAGE}); with --json, one channel per line (NDJSON)`),
    [
      'tubekit terminated cooking',
      'tubekit terminated cooking, gaming --sort subs_desc --min-subs 100000',
      'tubekit terminated lofi --languages en,es --monetized yes --per-page 50',
      'tubekit terminated "sourdough bread" --sort similarity_desc --json | jq ".channels[].channel_title"',
      'tubekit terminated gaming --all --json | jq -r .channel_id',
    ],
  );
  for (const [stem, what] of BOUNDED) {
    command.option(`--min-${stem} <n>`, `at least this many ${what}`);
    command.option(`--max-${stem} <n>`, `at most this many ${what}`);
  }
  command.action(async (words: string[], options: TerminatedOptions) => {
    const input = searchInput(words, options);
    if (options.all) await printAllPages(app, input);
    else await printPage(app, await app.call('terminated.search', input));
  });
}

/** The request, checked: bad numbers and pages exit 2 before any call. */
function searchInput(words: string[], options: TerminatedOptions): Input {
  const q = words.join(' ').trim();
  if (!q.replace(/[,\s]/g, '')) throw usageError('Give at least one keyword: tubekit terminated cooking');
  if (options.all && options.page !== undefined) throw usageError('--all walks every page; leave out --page.');
  const input: Record<string, unknown> = { q, sort: options.sort ?? 'date_desc' };
  if (options.languages !== undefined) input.languages = options.languages;
  if (options.monetized !== undefined) input.monetized = options.monetized;
  if (options.page !== undefined) input.page = parseWholeNumber(options.page, '--page', { min: 1, max: MAX_PAGE });
  const perPage = options.perPage ?? (options.all ? String(MAX_PER_PAGE) : undefined);
  if (perPage !== undefined) input.per_page = parseWholeNumber(perPage, '--per-page', { min: 1, max: MAX_PER_PAGE });
  for (const flag of BOUNDS) {
    const value = options[optionKey(flag)];
    if (typeof value === 'string') input[flag.replace(/-/g, '_')] = parseWholeNumber(value, `--${flag}`);
  }
  return input as Input;
}

async function printPage(app: CliApp, body: Body): Promise<void> {
  if (app.json) {
    printJson(app.io, body);
    return;
  }
  await printTable(app.io, body.channels, columns(app));
  app.io.note(`Page ${body.page} of ${Math.max(1, body.total_pages)}: ${body.total.toLocaleString('en-US')} matching channel${body.total === 1 ? '' : 's'}.`);
}

/** Every page in turn: one table (or TSV) of all rows, or NDJSON with --json. */
async function printAllPages(app: CliApp, input: Input): Promise<void> {
  const rows: Channel[] = [];
  let body: Body;
  let page = 1;
  do {
    body = await app.call('terminated.search', { ...input, page });
    if (app.json) for (const channel of body.channels) app.io.out(JSON.stringify(channel));
    else rows.push(...body.channels);
    page += 1;
  } while (page <= body.total_pages && body.channels.length > 0);
  if (!app.json) await printTable(app.io, rows, columns(app));
  const shown = Math.min(body.total, body.total_pages * body.per_page);
  if (shown < body.total) {
    app.io.note(`Showing the first ${shown.toLocaleString('en-US')} of ${body.total.toLocaleString('en-US')} matching channels (${MAX_PAGE} pages at most); narrow the search with filters to see the others.`);
  }
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
    { header: 'Monetized', value: (row: Channel) => (row.monetized ? 'yes' : 'no') },
    { header: 'Terminated', value: (row: Channel) => row.terminated_date },
    { header: 'Views 24h', value: (row: Channel) => signed(io, row.view_increase_24h) },
    { header: 'Match', value: (row: Channel) => row.similarity_score },
  ];
}
