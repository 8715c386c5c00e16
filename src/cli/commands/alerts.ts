import { Option, type Command } from 'commander';
import { ExitCode } from '../../core/exit-codes.js';
import type { RouteOutput } from '../../core/routes.js';
import { ALERT_TYPES, CONTENT_TYPES, type Alert, type AlertFilters, type TriggeredChannel } from '../../core/schemas/alerts.js';
import type { CliApp } from '../app.js';
import { parseId, parseWholeNumber } from '../arguments.js';
import { confirmOrAbort } from '../confirm.js';
import { usageError } from '../../core/client-errors.js';
import { examples, withExamples } from '../help.js';
import { printJson, printTable, type Column } from '../output.js';
import { pageInput, printListing, type PageOptions } from '../paging.js';
import { registerAlertsWatch, triggeredSince } from './alerts-watch.js';

const NUMBER_FILTERS = [
  ['min_subs', '--min-subs <n>', 'at least this many subscribers'],
  ['max_subs', '--max-subs <n>', 'at most this many subscribers'],
  ['min_views', '--min-views <n>', 'at least this many total views'],
  ['max_views', '--max-views <n>', 'at most this many total views'],
  ['min_avg_views', '--min-avg-views <n>', 'at least this many views per video on average'],
  ['max_avg_views', '--max-avg-views <n>', 'at most this many views per video on average'],
  ['min_age', '--min-age <days>', 'channel at least this many days old'],
  ['max_age', '--max-age <days>', 'channel at most this many days old'],
  ['min_uploads', '--min-uploads <n>', 'at least this many videos'],
  ['max_uploads', '--max-uploads <n>', 'at most this many videos'],
] as const;
const LIST_FILTERS = [
  ['languages', '--languages <list>', 'comma-separated language names or codes (English,es)'],
  ['categories', '--categories <list>', 'comma-separated categories (Gaming,Music)'],
  ['keywords', '--keywords <list>', 'comma-separated words to find in the channel\'s title or description (or the outlier video\'s title)'],
] as const;

const camel = (flag: string) => flag.replace(/^--/, '').split(' ')[0]!.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

function withFilterOptions(command: Command): Command {
  for (const [, flags, description] of [...NUMBER_FILTERS, ...LIST_FILTERS]) command.option(flags, description);
  return command;
}

/** Filter flags given on the command line, as API filters (only the ones given). */
function filtersFrom(options: Record<string, unknown>): AlertFilters {
  const filters: Record<string, unknown> = {};
  for (const [name, flags] of NUMBER_FILTERS) {
    const value = options[camel(flags)];
    if (value !== undefined) filters[name] = parseWholeNumber(String(value), flags.split(' ')[0]!);
  }
  for (const [name, flags] of LIST_FILTERS) {
    const value = options[camel(flags)];
    if (value === undefined) continue;
    const list = String(value).split(',').map((part) => part.trim()).filter(Boolean);
    if (list.length === 0) throw usageError(`${flags.split(' ')[0]} needs at least one value.`);
    filters[name] = list;
  }
  return filters as AlertFilters;
}

const describeFilters = (filters: Record<string, unknown>) =>
  Object.entries(filters).map(([name, value]) => `${name}=${Array.isArray(value) ? value.join(',') : String(value)}`).join(' ');

const alertColumns: Column<Alert>[] = [
  { header: 'ID', value: (alert) => alert.id },
  { header: 'Name', value: (alert) => alert.name },
  { header: 'Type', value: (alert) => alert.alert_type },
  { header: 'Content', value: (alert) => alert.content_type },
  { header: 'Enabled', value: (alert) => (alert.enabled ? 'yes' : 'no') },
  { header: 'New', value: (alert) => alert.new_channels },
  { header: 'Filters', value: (alert) => describeFilters(alert.filters ?? {}) },
  { header: 'Evaluated (world time)', value: (alert) => (alert.last_world_time === null ? 'not yet' : alert.last_world_time) },
];

const triggeredColumns: Column<TriggeredChannel>[] = [
  { header: 'World time', value: (row) => row.world_time },
  { header: 'Alerts', value: (row) => (row.alerts ?? []).map((alert) => alert.alert_id).join(',') },
  { header: 'Type', value: (row) => row.alert_type },
  { header: 'Channel', value: (row) => row.channel_id },
  { header: 'Handle', value: (row) => row.handle },
  { header: 'Title', value: (row) => row.title },
  { header: 'New', value: (row) => (row.new ? 'new' : '') },
  { header: 'Why', value: (row) => row.reason },
];

/** After printing: with --fail-on-new, exit 1 when there were new triggered channels. */
function failOnNew(app: CliApp, enabled: boolean | undefined, count: number): void {
  if (!enabled || count === 0) return;
  app.io.note(`${count} new triggered channel(s).`);
  process.exitCode = ExitCode.failure;
}

export function registerAlerts(program: Command, app: CliApp): void {
  const alerts = withExamples(program.command('alerts').description('Saved searches evaluated as the world moves, and the channels that triggered them'), [
    'tubekit alerts create "Breakouts" --type breakout --min-subs 1000',
    'tubekit engine world advance 1d          # the sample world moves; alerts are evaluated',
    'tubekit alerts status',
    'tubekit alerts triggered',
  ]);

  alerts
    .command('list')
    .description('Your alerts, with how many channels were new in each one\'s latest evaluation')
    .addHelpText('before', examples(['tubekit alerts list', 'tubekit alerts list --json | jq -r \'.alerts[].name\'']))
    .action(async () => {
      const body = await app.call('alerts.list', {});
      await app.render(body, (b) => printTable(app.io, b.alerts, alertColumns));
    });

  withFilterOptions(
    alerts
      .command('create <name>')
      .description('Create an alert: a type, a content type and search filters (Starter 5, Professional 25, Ultimate 100)')
      .addHelpText(
        'before',
        examples([
          'tubekit alerts create "Cooking outliers" --type outlier --content-type longform --min-subs 10000 --categories "Howto & Style"',
          'tubekit alerts create "New Spanish shorts" --type new_channel --content-type shorts --languages es',
          'tubekit alerts create "Breakouts" --type breakout --min-subs 1000',
        ]),
      )
      .addOption(new Option('--type <type>', 'what makes a channel trigger it').choices(ALERT_TYPES).default('outlier'))
      .addOption(new Option('--content-type <type>', 'channels and videos it watches').choices(CONTENT_TYPES).default('longform')),
  ).action(async (name: string, options: Record<string, string> & { type: string; contentType: string }) => {
    const filters = filtersFrom(options);
    const body = await app.call('alerts.create', { name, alert_type: options.type as Alert['alert_type'] as never, content_type: options.contentType as never, filters });
    await app.render(body, (b) => printTable(app.io, [b.alert], alertColumns));
    if (!app.json) app.io.note(`Alert ${body.alert.id} is evaluated in the next cycle: \`tubekit engine alerts evaluate\` (local), \`tubekit engine world advance 1d\`, or serve's schedule.`);
  });

  withFilterOptions(
    alerts
      .command('update <id>')
      .description('Rename, enable or disable an alert, or change its filters (given filters replace those values)')
      .addHelpText(
        'before',
        examples(['tubekit alerts update 1 --disable', 'tubekit alerts update 1 --name "Big breakouts" --min-subs 100000', 'tubekit alerts update 1 --clear-filters --languages English']),
      )
      .option('--name <name>', 'new name')
      .option('--enable', 'evaluate it in every cycle')
      .option('--disable', 'skip it in cycles (its history stays)')
      .option('--clear-filters', 'start from no filters (then apply the filter flags given)'),
  ).action(async (id: string, options: Record<string, string> & { name?: string; enable?: boolean; disable?: boolean; clearFilters?: boolean }) => {
    const alertId = parseId(id, 'Alert id');
    if (options.enable && options.disable) throw usageError('--enable and --disable contradict each other: pick one.');
    const given = filtersFrom(options);
    const changesFilters = options.clearFilters || Object.keys(given).length > 0;
    if (options.name === undefined && !options.enable && !options.disable && !changesFilters) {
      throw usageError('Nothing to change.', 'Give --name, --enable, --disable, --clear-filters or filter flags.');
    }
    let filters: AlertFilters | undefined;
    if (changesFilters) {
      // The API replaces filters as a whole: merge the flags given onto the alert's current ones.
      const current = options.clearFilters ? undefined : (await app.call('alerts.list', {})).alerts.find((alert) => alert.id === alertId);
      filters = { ...(current?.filters as AlertFilters | undefined), ...given };
    }
    const body = await app.call('alerts.update', {
      id: alertId,
      name: options.name,
      filters,
      enabled: options.enable ? true : options.disable ? false : undefined,
    });
    await app.render(body, (b) => printTable(app.io, [b.alert], alertColumns));
  });

  alerts
    .command('delete <id>')
    .description('Delete an alert and its triggered history (asks first on a terminal)')
    .addHelpText('before', examples(['tubekit alerts delete 1', 'tubekit alerts delete 1 --yes            # no question: for scripts']))
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (id: string, options: { yes?: boolean }) => {
      const alertId = parseId(id, 'Alert id');
      await confirmOrAbort(app.io, `Delete alert ${alertId} and its triggered history?`, options.yes);
      const body = await app.call('alerts.delete', { id: alertId });
      // A bare count on stdout would read as data nobody asked for: the outcome is a sentence (stderr).
      if (app.json) printJson(app.io, body);
      else app.io.note(`Deleted alert ${alertId}; ${body.removed_triggers} triggered channel record(s) removed.`);
    });

  alerts
    .command('triggered')
    .description('Channels your alerts found in their latest evaluation (--history: every one ever recorded), newest first')
    .addHelpText(
      'before',
      examples([
        'tubekit alerts triggered',
        'tubekit alerts triggered --alert 1 --per-page 10',
        'tubekit alerts triggered --all --fail-on-new      # cron: print the latest finds, exit 1 if any',
        'tubekit alerts triggered --since 1234             # cron: the channels triggered after a cursor (prints the next one)',
        'tubekit alerts triggered --history --all --json | jq -r \'.channels[] | [.channel_id, .reason] | @tsv\'',
      ]),
    )
    .option('--alert <id>', 'only this alert')
    .option('--history', 'every channel the alerts ever recorded, not only their latest evaluation\'s')
    .option('--page <n>', 'page, 1 to 20')
    .option('--per-page <n>', 'rows per page, 1 to 50 (default 50)')
    .option('--all', 'every page (up to the service\'s 20): with --json, one body holding every channel')
    // Before the feed defaulted to the latest evaluation, --new asked for it; scripts still pass it.
    .addOption(new Option('--new').hideHelp().conflicts('history'))
    .option('--fail-on-new', 'exit 1 when any listed channel is new in its alert\'s latest evaluation (for cron and CI)')
    .option('--since <cursor>', 'the alert.triggered events after this cursor (0: all), each once, and the cursor to pass next time (a tubekit extension)')
    .action(async (options: PageOptions & { alert?: string; history?: boolean; failOnNew?: boolean; since?: string }) => {
      const alertId = options.alert === undefined ? undefined : parseId(options.alert, '--alert');
      if (options.since !== undefined) {
        if (!/^\d{1,15}$/.test(options.since)) throw usageError(`--since takes a cursor (digits) from an earlier run, not "${options.since}".`);
        if (options.history || options.page !== undefined || options.all) throw usageError('--since reads the events after a cursor: it does not take --history, --page or --all.');
        await triggeredSince(app, options.since, alertId);
        return;
      }
      const paging = pageInput(options, { maxPage: 20, maxPerPage: 50 });
      // Only sent when asked: a server that knows nothing of our extension answers the spec's feed.
      const base = { alert_id: alertId, history: options.history ? true : undefined, per_page: paging.per_page };
      const channels = await printListing<RouteOutput<'alerts.triggered'>, TriggeredChannel>(
        app,
        { all: options.all, page: paging.page },
        (page) => app.call('alerts.triggered', { ...base, page }),
        { key: 'channels', maxPage: 20, perPage: paging.per_page, print: (rows) => printTable(app.io, rows, triggeredColumns) },
      );
      // Without --history every row is from its alert's latest evaluation (a spec server sends no `new`).
      failOnNew(app, options.failOnNew, options.history ? channels.filter((row) => row.new).length : channels.length);
    });

  alerts
    .command('status')
    .alias('outlier-status')
    .description('Per alert: channels new in its latest evaluation, and when it was evaluated (cheap to poll; the API\'s outlier-status)')
    .addHelpText('before', examples(['tubekit alerts status', 'tubekit alerts status --fail-on-new && echo "nothing new"', 'tubekit alerts outlier-status --json | jq .new_channels']))
    .option('--fail-on-new', 'exit 1 when any alert has new channels (for cron and CI)')
    .action(async (options: { failOnNew?: boolean }) => {
      const body = await app.call('alerts.status', {});
      await app.render(body, (b) =>
        printTable(app.io, b.alerts ?? [], [
          { header: 'ID', value: (alert) => alert.alert_id },
          { header: 'Name', value: (alert) => alert.name },
          { header: 'Type', value: (alert) => alert.alert_type },
          { header: 'Enabled', value: (alert) => (alert.enabled ? 'yes' : 'no') },
          { header: 'New', value: (alert) => alert.new_channels },
          { header: 'Evaluated at', value: (alert) => (alert.last_evaluated_at === null ? 'not yet' : alert.last_evaluated_at) },
          { header: 'World time', value: (alert) => alert.last_world_time ?? '' },
        ]),
      );
      // Ours beyond the spec: a server may send neither the world time nor the total.
      if (!app.json && body.world_time !== undefined) app.io.note(`World time now: ${body.world_time}.`);
      failOnNew(app, options.failOnNew, body.new_channels ?? (body.alerts ?? []).reduce((sum, alert) => sum + (alert.new_channels ?? 0), 0));
    });

  registerAlertsWatch(alerts, app);
}
