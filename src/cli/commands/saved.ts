import type { Command } from 'commander';
import type { FolderChannel } from '../../core/schemas/workspace.js';
import type { CliApp } from '../app.js';
import { expandStdinArgs, parseId, resolveChannelArg } from '../arguments.js';
import { completesWith } from '../completion/dynamic.js';
import { examples, withExamples } from '../help.js';
import { count, printRecord, printTable, type Column } from '../output.js';

/** A saved channel with the folder it is saved in (a channel in two folders is two rows). */
export interface SavedChannel extends FolderChannel {
  folder_id: number;
  folder_name: string;
}

/**
 * Every saved channel across folders, or one folder's: composed from `folders list` and
 * `folders channels`, so it works on any service that has those (both engines, the hosted one).
 */
async function listSaved(app: CliApp, folderId?: number): Promise<SavedChannel[]> {
  // One folder's channels first: an unknown id answers 404 before anything else is asked.
  const only = folderId === undefined ? undefined : await app.call('folders.channels', { id: folderId });
  const { folders } = await app.call('folders.list', {});
  const rows: SavedChannel[] = [];
  for (const folder of folders) {
    if (folderId !== undefined && folder.id !== folderId) continue;
    const { channels } = only ?? (folder.channel_count > 0 ? await app.call('folders.channels', { id: folder.id }) : { channels: [] });
    rows.push(...channels.map((channel) => ({ folder_id: folder.id, folder_name: folder.name, ...channel })));
  }
  return rows;
}

function savedColumns(app: CliApp): Column<SavedChannel>[] {
  return [
    { header: 'Folder', value: (row) => row.folder_id },
    { header: 'Folder name', value: (row) => row.folder_name },
    { header: 'Channel', value: (row) => row.channel_id },
    { header: 'Handle', value: (row) => row.handle },
    { header: 'Title', value: (row) => row.title },
    { header: 'Subscribers', value: (row) => count(app.io, row.subscribers) },
    { header: 'Saved', value: (row) => row.saved_at },
  ];
}

export function registerSaved(program: Command, app: CliApp): void {
  const saved = withExamples(program.command('saved').description('Save channels into folders'), [
    'tubekit saved add @honestrunning UCnjgVTsmU7Ql4Vzmi0HEN8Q --folder 1',
    'tubekit engine sample channels --limit 5 | cut -f1 | tubekit saved add - --folder 1',
    'tubekit saved move @honestrunning --from 1 --to 2',
    'tubekit saved remove @honestrunning',
  ]);

  saved
    .command('list')
    .description('Every saved channel across your folders (or one folder\'s), newest save first in each')
    .addHelpText('before', examples(['tubekit saved list', 'tubekit saved list --folder 1', 'tubekit saved list | cut -f3 | sort -u        # each saved channel id once', 'tubekit saved list --jq \'.channels[] | "\\(.folder_name): \\(.title)"\'']))
    .option('--folder <id>', 'only this folder\'s channels')
    .action(async (options: { folder?: string }) => {
      const folderId = options.folder === undefined ? undefined : parseId(options.folder, '--folder');
      const channels = await listSaved(app, folderId);
      await app.render({ success: true, count: channels.length, channels }, (body) => printTable(app.io, body.channels, savedColumns(app)));
    });

  saved
    .command('add <channel...>')
    .description('Save channels (ids, @handles or URLs; - reads stdin) into a folder; all or nothing')
    .addHelpText('before', examples(['tubekit saved add @honestrunning https://www.youtube.com/@goldenpiano --folder 1', 'tubekit engine sample channels --limit 5 | cut -f1 | tubekit saved add - --folder 1']))
    .requiredOption('--folder <id>', 'folder to save into')
    .action(async (channels: string[], options: { folder: string }) => {
      const folderId = parseId(options.folder, '--folder');
      const inputs = await expandStdinArgs(app, channels);
      const ids = [];
      for (const input of inputs) ids.push(await resolveChannelArg(app, input));
      const body = await app.call('saved.add', { channel_ids: ids, folder_id: folderId });
      await app.render(body, (b) => printRecord(app.io, Object.entries(b).filter(([key]) => key !== 'success')));
    });

  saved
    .command('remove <channel>')
    .description('Remove a channel from all your folders')
    .addHelpText('before', examples(['tubekit saved remove @honestrunning']))
    .action(async (channel: string) => {
      const body = await app.call('saved.remove', { channel_id: await resolveChannelArg(app, channel) });
      await app.render(body, (b) => printRecord(app.io, Object.entries(b).filter(([key]) => key !== 'success')));
    });

  saved
    .command('move <channel>')
    .description('Move a saved channel from one folder to another')
    .addHelpText('before', examples(['tubekit saved move @honestrunning --from 1 --to 2']))
    .requiredOption('--from <id>', 'folder it is in')
    .requiredOption('--to <id>', 'folder to move it to')
    .action(async (channel: string, options: { from: string; to: string }) => {
      // Both folder ids are checked before the channel is resolved: a typo costs no call.
      const from = parseId(options.from, '--from');
      const to = parseId(options.to, '--to');
      const body = await app.call('saved.move', { channel_id: await resolveChannelArg(app, channel), from_folder_id: from, to_folder_id: to });
      await app.render(body, (b) => printRecord(app.io, Object.entries(b).filter(([key]) => key !== 'success')));
    });

  // Folder ids complete on Tab wherever a command takes one.
  const sub = (name: string) => saved.commands.find((command) => command.name() === name)!;
  completesWith(sub('list'), 'folder', '--folder');
  completesWith(sub('add'), 'folder', '--folder');
  completesWith(sub('move'), 'folder', '--from');
  completesWith(sub('move'), 'folder', '--to');
}
