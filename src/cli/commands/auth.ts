import type { Command } from 'commander';
import { exitCodeForError } from '../../core/exit-codes.js';
import type { CliApp } from '../app.js';
import { usageError } from '../errors.js';
import { examples, withExamples } from '../help.js';
import { printJson, printRecord } from '../output.js';

/** Reads a key from a hidden prompt on a terminal, or from stdin when piped. Never from a flag. */
async function readKey(app: CliApp): Promise<string> {
  if (app.io.canPrompt) {
    const { password } = await import('@inquirer/prompts');
    return (await password({ message: 'API key', mask: '*' }, { output: app.io.streams.stderr as never })).trim();
  }
  if (app.io.stdinIsTerminal) throw usageError('No key given.', 'Pipe the key on stdin: `tubekit auth login < keyfile`.');
  return (await app.io.readStdin()).trim();
}

export function registerAuth(program: Command, app: CliApp): void {
  const auth = withExamples(program.command('auth').description('Store, check and remove the API key of a profile'), [
    'tubekit auth login                      # prompts for the key',
    'tubekit auth login < ~/.tubekit-key     # reads it from stdin',
    'tubekit auth status',
  ]);

  auth
    .command('login')
    .description('Save an API key to the current profile (read from a prompt or stdin)')
    .addHelpText('before', examples(['tubekit auth login                      # prompts for the key (hidden)', 'tubekit auth login < ~/.tubekit-key', 'tubekit engine keys create --plan starter | tubekit --profile starter auth login']))
    .action(async () => {
      const key = await readKey(app);
      if (!key) throw usageError('The key is empty.');
      if (/\s/.test(key)) throw usageError('The key contains spaces or line breaks; pass exactly one key.');
      const profile = app.settings.profileName;
      await app.config.update(profile, (current) => ({ ...current, api_key: key }));
      app.io.note(`Saved the key to profile "${profile}" (${app.config.file}, mode 0600).`);
      if (!app.settings.baseUrl) app.io.note('Set the service address with `tubekit config set base_url <url>` to use it.');
    });

  auth
    .command('status')
    .description('Show where the key comes from and whether the service accepts it (never the key)')
    .addHelpText('before', examples(['tubekit auth status', 'tubekit auth status --json | jq .authenticated   # exits 4 when the key is refused']))
    .action(async () => {
      const settings = app.settings;
      const status: Record<string, unknown> = {
        profile: settings.profileName,
        mode: settings.mode,
        target: settings.mode === 'remote' ? settings.baseUrl : settings.dataDir,
        key_source: settings.keySource,
      };
      let failure: unknown;
      try {
        await app.call('health', {});
        status.authenticated = true;
      } catch (error) {
        failure = error;
        status.authenticated = false;
        status.error = (error as Error).message;
      }
      if (app.json) printJson(app.io, status);
      else printRecord(app.io, Object.entries(status));
      // 4 for a refused key, 9 for a service that cannot be reached, as for any other command.
      if (failure !== undefined) process.exitCode = exitCodeForError(failure);
    });

  auth
    .command('logout')
    .description('Remove the key from the current profile')
    .addHelpText('before', examples(['tubekit auth logout', 'tubekit --profile staging auth logout']))
    .action(async () => {
      const profile = app.settings.profileName;
      await app.config.update(profile, (current) => ({ ...current, api_key: undefined }));
      app.io.note(`Removed the key from profile "${profile}".`);
    });
}
