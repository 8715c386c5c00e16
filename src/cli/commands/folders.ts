import type { Command } from 'commander';
import type { Folder, FolderChannel } from '../../core/schemas/workspace.js';
import type { CliApp } from '../app.js';
import { parseId } from '../arguments.js';
import { completesWith } from '../completion/dynamic.js';
import { confirmOrAbort } from '../confirm.js';
import { examples, withExamples } from '../help.js';
import { count, printTable, signed, type Column } from '../output.js';
import { blockSparkline } from '../sparkline.js';

const folderColumns: Column<Folder>[] = [
  { header: 'ID', value: (folder) => folder.id },
  { header: 'Name', value: (folder) => folder.name },
  { header: 'Channels', value: (folder) => folder.channel_count },
  { header: 'Created', value: (folder) => folder.created_at },
];

export function registerFolders(program: Command, app: CliApp): void {
  const folders = withExamples(program.command('folders').description('Organise saved channels in folders'), [
    'tubekit folders create Cooking',
    'tubekit saved add @honestrunning --folder 1',
    'tubekit folders channels 1',
  ]);

  folders
    .command('list')
    .description('List your folders')
    .addHelpText('before', examples(['tubekit folders list', 'tubekit folders list | cut -f1,2          # id and name, tab-separated', 'tubekit folders list --json | jq -r \'.folders[].name\'']))
    .action(async () => {
      const body = await app.call('folders.list', {});
      await app.render(body, (b) => printTable(app.io, b.folders, folderColumns));
    });

  folders
    .command('create <name>')
    .description('Create a folder (names are 1 to 50 characters, unique)')
    .addHelpText('before', examples(['tubekit folders create Cooking', 'tubekit folders create "Late-night piano" --json | jq .folder.id']))
    .action(async (name: string) => {
      const body = await app.call('folders.create', { name });
      await app.render(body, (b) => printTable(app.io, [b.folder], folderColumns));
    });

  completesWith(folders.command('rename <id> <name>'), 'folder')
    .description('Rename a folder')
    .addHelpText('before', examples(['tubekit folders rename 1 "Home cooking"']))
    .action(async (id: string, name: string) => {
      const body = await app.call('folders.rename', { id: parseId(id, 'Folder id'), name });
      await app.render(body, (b) => printTable(app.io, [b.folder], folderColumns));
    });

  completesWith(folders.command('delete <id>'), 'folder')
    .description('Delete a folder; its channels are unsaved entirely (asks first on a terminal)')
    .addHelpText('before', examples(['tubekit folders delete 1', 'tubekit folders delete 1 --yes           # no question: for scripts']))
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (id: string, options: { yes?: boolean }) => {
      const folderId = parseId(id, 'Folder id');
      await confirmOrAbort(app.io, `Delete folder ${folderId} and unsave all its channels?`, options.yes);
      const body = await app.call('folders.delete', { id: folderId });
      app.renderOutcome(body, String(body.unsaved_channels), `Deleted folder ${folderId}; ${body.unsaved_channels} channel(s) unsaved.`);
    });

  completesWith(folders.command('channels <id>'), 'folder')
    .description('Channels in a folder, newest save first, with live 24h/48h deltas')
    .addHelpText('before', examples(['tubekit folders channels 1', 'tubekit folders channels 1 --json | jq -r \'.channels[].handle\'']))
    .action(async (id: string) => {
      const body = await app.call('folders.channels', { id: parseId(id, 'Folder id') });
      await app.render(body, async (b) => {
        await printTable(app.io, b.channels, [...channelColumns(app), ...(app.io.stdoutIsTerminal ? await sparklineColumn(app, b.channels) : [])]);
        if (app.io.stdoutIsTerminal) noteFirstReads(app, b.channels);
      });
    });
}

const DAY_MS = 86_400_000;

/**
 * On a terminal: why a live channel's 24h/48h columns are empty when its first read is less than a
 * day old, once for the table (the newest first read, the last to fill in).
 */
export function noteFirstReads(app: CliApp, channels: readonly FolderChannel[]): void {
  const young = channels
    .filter((channel) => channel.watched_since && channel.figures_as_of && channel.views_24h === null)
    .filter((channel) => Date.parse(channel.figures_as_of!) - Date.parse(channel.watched_since!) < DAY_MS)
    .map((channel) => channel.watched_since!)
    .sort();
  const newest = young.at(-1);
  if (!newest) return;
  const [date, time] = [newest.slice(0, 10), newest.slice(11, 16)];
  const today = new Date().toISOString().slice(0, 10);
  app.io.note(`24h/48h figures start 24 h after the first read (watched since ${date === today ? time : `${date} ${time}`} UTC).`);
}

function channelColumns(app: CliApp): Column<FolderChannel>[] {
  const io = app.io;
  return [
    { header: 'Channel', value: (channel) => channel.channel_id },
    { header: 'Handle', value: (channel) => channel.handle },
    { header: 'Title', value: (channel) => channel.title },
    { header: 'Subscribers', value: (channel) => count(io, channel.subscribers) },
    { header: 'Views 24h', value: (channel) => signed(io, channel.views_24h) },
    { header: 'Views 48h', value: (channel) => signed(io, channel.views_48h) },
    { header: 'Subs 24h', value: (channel) => signed(io, channel.subs_24h) },
    { header: 'Subs 48h', value: (channel) => signed(io, channel.subs_48h) },
    { header: 'Saved', value: (channel) => channel.saved_at },
  ];
}

/** Days of the sparkline column. */
const SPARK_DAYS = 14;

/**
 * On a terminal only (never in --json or a pipe): each channel's subscribers over the last two
 * weeks, from the history route; a history that could not be read says so rather than drawing nothing.
 */
async function sparklineColumn(app: CliApp, channels: readonly FolderChannel[]): Promise<Column<FolderChannel>[]> {
  const lines = new Map(await Promise.all(channels.map(async (channel) => {
    try {
      const history = await app.call('channels.history', { channel_id: channel.channel_id, days: SPARK_DAYS });
      return [channel.channel_id, blockSparkline(history.points.map((point) => point.subscribers)) || 'no history'] as const;
    } catch {
      return [channel.channel_id, 'unknown'] as const;
    }
  })));
  return [{ header: `Subs ${SPARK_DAYS}d`, value: (channel) => lines.get(channel.channel_id) ?? 'unknown' }];
}
