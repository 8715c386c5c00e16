/**
 * `tubekit cms <channel>`: managed-network status of a channel (a live check when unchecked or with
 * --refresh); `cms networks`: browse networks; `cms network <oid>`: one network and its members.
 */
import { Option, type Command } from 'commander';
import type { RouteOutput } from '../../core/routes.js';
import type { CliApp } from '../app.js';
import { parseWholeNumber, resolveChannelArg } from '../arguments.js';
import { cardSection, printCard, signalSections } from '../card.js';
import { usageError } from '../../core/client-errors.js';
import { examples, withExamples } from '../help.js';
import type { IO } from '../io.js';
import { callLive } from '../live-call.js';
import { count, printTable, type Column } from '../output.js';

type CmsBody = RouteOutput<'cms.check'>;
type NetworkChannel = NonNullable<NonNullable<CmsBody['network']>['members']>[number];
type NetworkList = Extract<RouteOutput<'cms.networks'>, { networks: unknown }>;
type NetworkDetail = Extract<RouteOutput<'cms.networks'>, { network: unknown }>;
type Member = NetworkDetail['network']['members'][number];

const SORTS = ['channels', 'subscribers'] as const;

export function registerCms(program: Command, app: CliApp): void {
  const cms = withExamples(
    program
      .command('cms')
      .description('Managed-network (CMS) status of a channel; browse networks with `cms networks`')
      .argument('<channel>', 'UC… id, @handle or channel URL')
      .option('--refresh', 'run a live check even when a verdict is stored (counts against the hourly live-check cap)')
      .option('--full-network', 'list the whole network instead of its 5 biggest other channels (Professional, Ultimate)'),
    [
      'tubekit cms @tylermoreau16',
      'tubekit cms @tylermoreau16 --full-network',
      'tubekit cms @honestrunning --refresh --json | jq .status',
      'tubekit cms networks --sort subscribers --limit 10',
    ],
  ).action(async (channel: string, flags: { refresh?: boolean; fullNetwork?: boolean }) => {
    if (!channel.trim()) throw usageError('Give a channel: a UC… id, an @handle or a channel URL.');
    const channelId = await resolveChannelArg(app, channel);
    const body = await callLive(
      app,
      'cms.check',
      { channel_id: channelId, refresh: Boolean(flags.refresh), full_network: Boolean(flags.fullNetwork) },
      `Checking ${channel.trim()}`,
    );
    await app.render(body, (shown) => printCmsCard(app.io, shown));
  });

  withExamples(
    cms
      .command('networks')
      .description('Managed networks the service knows, by members or combined subscribers')
      .option('--q <text>', 'only networks whose name contains this (case-insensitive)')
      .option('--min-channels <n>', 'only networks with at least this many known channels', '2')
      .addOption(new Option('--sort <by>', 'most members first, or largest combined subscribers first').choices(SORTS).default('channels'))
      .option('--limit <n>', 'how many networks (1 to 100)', '25'),
    ['tubekit cms networks', 'tubekit cms networks --q media --min-channels 3', 'tubekit cms networks --sort subscribers --limit 5 | cut -f1,2'],
  ).action(async (flags: { q?: string; minChannels: string; sort: (typeof SORTS)[number]; limit: string }) => {
    const body = (await app.call('cms.networks', {
      ...(flags.q !== undefined ? { q: flags.q } : {}),
      min_channels: parseWholeNumber(flags.minChannels, '--min-channels', { min: 1 }),
      sort: flags.sort,
      limit: parseWholeNumber(flags.limit, '--limit', { min: 1, max: 100 }),
    })) as NetworkList;
    await app.render(body, (shown) => printTable(app.io, shown.networks, networkColumns(app.io)));
  });

  cms
    .command('network')
    .description('One network: its owner and up to 100 members, biggest first (Professional, Ultimate)')
    .argument('<oid>', 'the owner id, from `tubekit cms networks` or a check result')
    .addHelpText('before', examples(['tubekit cms network saoctjveiu8o485Er8_OBA', 'tubekit cms network saoctjveiu8o485Er8_OBA --json | jq -r \'.network.members[].channel_id\'']))
    .action(async (oid: string) => {
      if (!oid.trim()) throw usageError('Give a network oid (see `tubekit cms networks`).');
      const body = (await app.call('cms.networks', { oid: oid.trim() })) as NetworkDetail;
      await app.render(body, (shown) => printNetworkCard(app.io, shown.network));
    });
}

function headline(body: CmsBody): string {
  if (body.status === 'managed') return `managed by ${body.owner?.name ?? 'a network never seen by name'}`;
  return body.status === 'not_managed' ? 'not managed' : 'unchecked: no verdict yet';
}

async function printCmsCard(io: IO, body: CmsBody): Promise<void> {
  const members = body.network?.members ?? body.network?.other_members_sample ?? [];
  const title = body.network?.members
    ? `All ${body.network.member_count} channels of the network:`
    : `The ${members.length} biggest other channels of the network (${body.network?.member_count ?? 0} in all):`;
  await printCard(
    io,
    headline(body),
    [
      ['channel_id', body.channel_id],
      ['status', body.status],
      ['oid', body.owner?.oid],
      ['owner', body.owner ? (body.owner.name ?? '(never seen by name)') : undefined],
      ['type', body.owner?.type ?? undefined],
      ['industry', body.owner?.industry ?? undefined],
      ['member_count', body.network?.member_count],
      ['checked_at', body.checked_at],
      ['checked_live', body.checked_live],
      ['note', body.note],
      ['hint', body.hint],
    ],
    [...(body.network ? [cardSection(title, 'member', members, channelColumns(io))] : []), ...signalSections(body.signals)],
  );
}

async function printNetworkCard(io: IO, network: NetworkDetail['network']): Promise<void> {
  const columns: Column<Member>[] = [
    ...channelColumns(io),
    { header: 'Language', value: (member) => member.language },
    { header: 'Category', value: (member) => member.category },
  ];
  await printCard(
    io,
    network.name ?? '(a network never seen by name)',
    [
      ['oid', network.oid],
      ['name', network.name ?? '(never seen by name)'],
      ['type', network.type],
      ['industry', network.industry],
      ['member_count', network.member_count],
      ['total_subscribers', count(io, network.total_subscribers)],
    ],
    [cardSection(`Members, biggest first (${network.members.length} of ${network.member_count}):`, 'member', network.members, columns)],
  );
}

function channelColumns(io: IO): Column<NetworkChannel>[] {
  return [
    { header: 'Channel', value: (channel) => channel.channel_id },
    { header: 'Name', value: (channel) => channel.name },
    { header: 'Subscribers', value: (channel) => count(io, channel.subscribers) },
    { header: 'Avg views', value: (channel) => count(io, channel.avg_views) },
  ];
}

function networkColumns(io: IO): Column<NetworkList['networks'][number]>[] {
  return [
    { header: 'OID', value: (network) => network.oid },
    { header: 'Name', value: (network) => network.name ?? (io.stdoutIsTerminal ? '(unnamed)' : '') },
    { header: 'Type', value: (network) => network.type },
    { header: 'Industry', value: (network) => network.industry },
    { header: 'Channels', value: (network) => network.member_count },
    { header: 'Subscribers', value: (network) => count(io, network.total_subscribers) },
  ];
}
