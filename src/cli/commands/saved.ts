import type { Command } from 'commander';
import type { CliApp } from '../app.js';
import { expandStdinArgs, parseId, resolveChannelArg } from '../arguments.js';
import { examples, withExamples } from '../help.js';
import { printRecord } from '../output.js';

export function registerSaved(program: Command, app: CliApp): void {
  const saved = withExamples(program.command('saved').description('Save channels into folders'), [
    'tubekit saved add @honestrunning UCnjgVTsmU7Ql4Vzmi0HEN8Q --folder 1',
    'tubekit engine sample channels --limit 5 | cut -f1 | tubekit saved add - --folder 1',
    'tubekit saved move @honestrunning --from 1 --to 2',
    'tubekit saved remove @honestrunning',
  ]);

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
}
