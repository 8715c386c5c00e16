import { Option, type Command } from 'commander';
import { ExitCode } from '../../core/exit-codes.js';
import { HISTORY_DAYS_MAX, HISTORY_METRICS, type ChannelHistory, type HistoryMetric } from '../../core/schemas/history.js';
import type { CliApp } from '../app.js';
import { resolveChannelArg } from '../arguments.js';
import { CliError } from '../../core/client-errors.js';
import { examples, withExamples } from '../help.js';
import { count, printTable } from '../output.js';
import { blockChart } from '../terminal-chart.js';

/** `--since 30d` (or `12w`, or a bare number of days) as whole days of history. */
export function parseSinceDays(text: string): number {
  const match = /^(\d+)([dw]?)$/i.exec(text.trim());
  const days = match ? Number(match[1]) * (match[2]!.toLowerCase() === 'w' ? 7 : 1) : NaN;
  if (!Number.isInteger(days) || days < 1 || days > HISTORY_DAYS_MAX) {
    throw new CliError(`--since must be a number of days from 1 to ${HISTORY_DAYS_MAX}, like 30d, 12w or 90 (got "${text}").`, ExitCode.usage);
  }
  return days;
}

export function registerChannel(program: Command, app: CliApp): void {
  const channel = withExamples(program.command('channel').description('One channel\'s figures over time'), ['tubekit channel stats @ellalol --since 90d']);

  channel
    .command('stats <channel>')
    .description('Subscribers, views and videos per day from the index, with a chart on a terminal (unknown days are gaps)')
    .addHelpText(
      'before',
      examples([
        'tubekit channel stats @ellalol',
        'tubekit channel stats UCxxxxxxxxxxxxxxxxxxxxxx --metric views --since 90d',
        'tubekit channel stats @ellalol --json | jq -r \'.points[] | [.date, .subscribers] | @tsv\'',
      ]),
    )
    .addOption(new Option('--metric <metric>', 'what the chart shows').choices(HISTORY_METRICS).default('subscribers'))
    .option('--since <days>', `how far back, 1 to ${HISTORY_DAYS_MAX} days (30d, 12w, 90)`, '30d')
    .action(async (input: string, options: { metric: HistoryMetric; since: string }) => {
      const days = parseSinceDays(options.since);
      const body = await app.call('channels.history', { channel_id: await resolveChannelArg(app, input), days });
      await app.render(body, (b) => printHistory(app, b, options.metric));
    });
}

async function printHistory(app: CliApp, history: ChannelHistory, metric: HistoryMetric): Promise<void> {
  const { io } = app;
  if (io.stdoutIsTerminal) {
    io.out(`${history.title}${history.handle ? ` (${history.handle})` : ''} · ${metric}, last ${history.days} days${history.watched_since ? ` · watched since ${history.watched_since}` : ''}`);
    const chart = blockChart(history.points.map((point) => ({ date: point.date, value: point[metric] })), { width: io.stdoutColumns ?? 80 });
    for (const line of chart) io.out(line);
    io.out('');
  }
  await printTable(io, history.points, [
    { header: 'Date', value: (point) => point.date },
    { header: 'Subscribers', value: (point) => (point.subscribers === null ? unknownDay(io.stdoutIsTerminal) : count(io, point.subscribers)) },
    { header: 'Views', value: (point) => (point.views === null ? unknownDay(io.stdoutIsTerminal) : count(io, point.views)) },
    { header: 'Videos', value: (point) => (point.videos === null ? unknownDay(io.stdoutIsTerminal) : count(io, point.videos)) },
  ]);
}

/** An unknown day: said on a terminal, an empty field when piped. */
const unknownDay = (terminal: boolean) => (terminal ? 'unknown' : '');
