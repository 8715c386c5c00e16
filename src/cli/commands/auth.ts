import type { Command } from 'commander';
import { ServiceError } from '../../core/errors.js';
import { ExitCode, exitCodeForError } from '../../core/exit-codes.js';
import type { CliApp } from '../app.js';
import { CliError, usageError } from '../../core/client-errors.js';
import { createService } from '../service-factory.js';
import { examples, withExamples } from '../help.js';
import { printJson, printRecord } from '../output.js';
import { readSecret } from '../read-secret.js';

/** Reads a key from a hidden prompt on a terminal, or from stdin when piped. Never from a flag. */
const readKey = (app: CliApp) => readSecret(app, 'API key', 'tubekit auth login < keyfile');

/**
 * The call that proves a key: one that needs it. Health is open on the hosted service (and on
 * serve), so it would pass any key; listing folders is a cheap read every valid key may make.
 */
const KEY_CHECK = 'folders.list';

/**
 * Asks the service the profile points at (the remote one, or the embedded engine) whether it takes
 * the key, as `gh auth login` does. A refusal throws (exit 4, nothing saved); a service that cannot
 * be reached returns a warning, and the key is saved anyway.
 */
async function verifyKey(app: CliApp, key: string): Promise<string | undefined> {
  const settings = app.settings;
  const where = settings.mode === 'remote' ? `The service at ${settings.baseUrl}` : `The embedded engine at ${settings.dataDir}`;
  // One try: a login that cannot reach the service says so at once rather than after retries.
  const service = await createService({ ...settings, apiKey: key }, app.io, { maxRetries: 0 });
  try {
    await service.call(KEY_CHECK, {});
    return undefined;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    if (error.status === 401) {
      throw new CliError(
        `${where} refused the key: ${error.message} Nothing was saved.`,
        ExitCode.auth,
        settings.mode === 'remote'
          ? 'Check that you copied the whole key, and that the base URL is the service that issued it.'
          : 'Keys of the embedded engine come from `tubekit engine keys create`. To log in to a remote service, set its address first: tubekit config set base_url <url>',
        'unauthorized',
      );
    }
    // The key was recognised; the plan is what stops it (e.g. no subscription): still the right key.
    if (error.status === 403) return `${where} knows the key, but: ${error.message}`;
    return `Could not check the key: ${error.message} Saved it anyway; check it later with \`tubekit auth status\`.`;
  } finally {
    await service.close();
  }
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
      const warning = await verifyKey(app, key);
      await app.config.update(profile, (current) => ({ ...current, api_key: key }));
      if (warning) app.io.error(app.io.yellow(`warning: ${warning}`));
      app.io.note(`Saved the key to profile "${profile}" (${app.config.file}, mode 0600).`);
      if (!app.settings.baseUrl) app.io.note('It is used when this profile talks to a remote service: tubekit config set base_url <url>');
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
        await app.call(KEY_CHECK, {});
        status.authenticated = true;
      } catch (error) {
        // A 403 comes from the plan, after the key was accepted: the key itself is fine.
        if (error instanceof ServiceError && error.status === 403) {
          status.authenticated = true;
          status.note = error.message;
        } else {
          failure = error;
          status.authenticated = false;
          status.error = (error as Error).message;
        }
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
      const profiles = app.config.profiles();
      // A typo must not look like success, nor leave an empty profile of that name behind.
      if (!(profile in profiles) && profile !== 'default') {
        const known = Object.keys(profiles);
        throw usageError(`There is no profile "${profile}" in ${app.config.file}; nothing was changed.`, known.length ? `Profiles: ${known.join(', ')}.` : 'No profile has been saved yet.');
      }
      if (!profiles[profile]?.api_key) {
        app.io.note(`Profile "${profile}" has no key stored; nothing to remove.`);
        return;
      }
      await app.config.update(profile, (current) => ({ ...current, api_key: undefined }));
      app.io.note(`Removed the key from profile "${profile}".`);
    });
}
