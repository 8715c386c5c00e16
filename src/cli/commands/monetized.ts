/**
 * `tubekit monetized <channel>`: a live ad-monetization check; `--exit-on-flip` exits 11 when the
 * verdict differs from the last one known (for cron). `monetized external <channel>`: what the
 * channel sells outside the platform.
 */
import type { Command } from 'commander';
import { ExitCode } from '../../core/exit-codes.js';
import type { RouteOutput } from '../../core/routes.js';
import type { CliApp } from '../app.js';
import { parseWholeNumber, resolveChannelArg } from '../arguments.js';
import { cardSection, printCard, signalSections } from '../card.js';
import { CliError, usageError } from '../../core/client-errors.js';
import { withExamples } from '../help.js';
import type { IO } from '../io.js';
import { callLive } from '../live-call.js';

type AdBody = RouteOutput<'monetization.ads'>;
type ExternalBody = RouteOutput<'monetization.external'>;

export function registerMonetized(program: Command, app: CliApp): void {
  const monetized = withExamples(
    program
      .command('monetized')
      .description('Live ad-monetization check of a channel; `monetized external` for what it sells elsewhere')
      .argument('<channel>', 'UC… id, @handle or channel URL')
      .option('--exit-on-flip', `exit ${ExitCode.flipped} when the verdict differs from the last one known (for cron)`),
    [
      'tubekit monetized @tylermoreau16',
      'tubekit monetized @tylermoreau16 --exit-on-flip --json | jq .previous',
      'tubekit monetized external @honestrunning',
    ],
  ).action(async (channel: string, flags: { exitOnFlip?: boolean }) => {
    const channelId = await channelArg(app, channel);
    const body = await callLive(app, 'monetization.ads', { channel_id: channelId }, `Reading the watch pages of ${channel.trim()}`);
    await app.render(body, (shown) => printAdCard(app.io, shown));
    const flip = flipOf(body);
    if (flags.exitOnFlip && flip !== null) {
      throw new CliError(
        `The ad-monetization verdict flipped: ${verdictWord(flip)} before, ${verdictWord(!flip)} now.`,
        ExitCode.flipped,
        undefined,
        'flipped',
      );
    }
  });

  withExamples(
    monetized
      .command('external')
      .description('What a channel sells outside the platform: methods with evidence, products, stores, funnel')
      .argument('<channel>', 'UC… id, @handle or channel URL')
      .option('--skip-live', 'answer what is stored without running the classifier (classified: false when nothing is)')
      .option('--cached-ok-secs <n>', 'reuse a stored result younger than this many seconds (and made by the current classifier)'),
    [
      'tubekit monetized external @honestrunning',
      'tubekit monetized external @honestrunning --cached-ok-secs 86400',
      'tubekit monetized external UC-G4LyTAzHi0Xaj33Fjszrg --skip-live --json | jq .classified',
    ],
  ).action(async (channel: string, flags: { skipLive?: boolean; cachedOkSecs?: string }) => {
    const cached = flags.cachedOkSecs === undefined ? undefined : parseWholeNumber(flags.cachedOkSecs, '--cached-ok-secs');
    const channelId = await channelArg(app, channel);
    const body = await callLive(
      app,
      'monetization.external',
      { channel_id: channelId, skip_live: Boolean(flags.skipLive), ...(cached !== undefined ? { cached_ok_secs: cached } : {}) },
      `Classifying ${channel.trim()}`,
    );
    await app.render(body, (shown) => printExternalCard(app.io, shown));
  });
}

function channelArg(app: CliApp, channel: string): Promise<string> {
  if (!channel.trim()) throw usageError('Give a channel: a UC… id, an @handle or a channel URL.');
  return resolveChannelArg(app, channel);
}

/**
 * The verdict before this check when it differs from this one: the stored verdict, or — when that
 * was unknown — the state seen last. Null when nothing flipped, or either side is unknown.
 */
function flipOf(body: AdBody): boolean | null {
  if (body.monetized === null || body.previous === null) return null;
  const { monetized, last_seen_monetized_at: seenOn, last_seen_demonetized_at: seenOff } = body.previous;
  const before = monetized ?? (seenOn === null && seenOff === null ? null : seenOff === null || (seenOn !== null && seenOn > seenOff));
  return before !== null && before !== body.monetized ? before : null;
}

const verdictWord = (monetized: boolean | null) => (monetized === null ? 'unknown' : monetized ? 'monetized' : 'not monetized');

async function printAdCard(io: IO, body: AdBody): Promise<void> {
  const piped = !io.stdoutIsTerminal;
  const word = (value: boolean | null) => (piped ? String(value) : value === null ? 'unknown' : value ? 'yes' : 'no');
  const flip = flipOf(body);
  await printCard(io, body.monetized === null ? 'unknown: no verdict this run' : verdictWord(body.monetized), [
    ['channel_id', body.channel_id],
    ['monetized', word(body.monetized)],
    ['reason', body.reason],
    ['hint', body.hint],
    ['checked_at', body.checked_at],
    ['previous', body.previous ? word(body.previous.monetized) : piped ? '' : '(never checked before)'],
    ['last_seen_monetized_at', body.previous?.last_seen_monetized_at ?? undefined],
    ['last_seen_demonetized_at', body.previous?.last_seen_demonetized_at ?? undefined],
    ['last_checked_at', body.previous?.last_checked_at],
    ['flipped', piped ? String(flip !== null) : flip === null ? 'no' : `yes (was ${verdictWord(flip)})`],
  ], signalSections(body.signals));
}

async function printExternalCard(io: IO, body: ExternalBody): Promise<void> {
  const funnel = body.funnel;
  await printCard(
    io,
    body.classified ? (body.summary ?? 'classified') : 'not classified yet (nothing stored)',
    [
      ['channel_id', body.channel_id],
      ['classified', body.classified],
      ['checked_live', body.checked_live],
      ['classifier_version', body.classifier_version ?? undefined],
      ['classified_at', body.classified_at ?? undefined],
      ['summary', body.summary ?? undefined],
      ['funnel.entry_points', funnel?.entry_points.join(', ')],
      ['funnel.description_link_share', funnel?.description_link_share],
      ['funnel.link_hub_url', funnel ? (funnel.link_hub_url ?? '') : undefined],
      ['funnel.email_capture', funnel?.email_capture],
      ['funnel.est_monthly_link_clicks', funnel?.est_monthly_link_clicks],
      ['funnel.est_click_through_rate', funnel?.est_click_through_rate],
      ['funnel.est_conversion_rate', funnel?.est_conversion_rate],
    ],
    [
      cardSection('Methods:', 'method', body.methods, [
        { header: 'Method', value: (row) => row.method },
        { header: 'Evidence', value: (row) => row.evidence },
        { header: 'Source', value: (row) => row.source_url },
      ]),
      cardSection('Products:', 'product', body.products, [
        { header: 'Product', value: (row) => row.name },
        { header: 'Method', value: (row) => row.method },
        { header: 'Price', value: (row) => `${row.price} ${row.currency}${row.billing === 'monthly' ? '/month' : ''}` },
        { header: 'URL', value: (row) => row.url },
      ]),
      cardSection('Stores:', 'store', body.store_urls, [{ header: 'URL', value: (url) => url }]),
    ],
  );
}
