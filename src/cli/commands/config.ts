import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { CliApp } from '../app.js';
import { PROFILE_KEYS, type ProfileKey } from '../config.js';
import { usageError } from '../errors.js';
import { examples, withExamples } from '../help.js';
import { printJson, printRecord } from '../output.js';

function checkKey(key: string): ProfileKey {
  if (key === 'api_key') throw usageError('The API key is not set with `config`.', 'Use `tubekit auth login`, or TUBEKIT_API_KEY.');
  if (!(key in PROFILE_KEYS)) {
    throw usageError(`Unknown setting "${key}". Settings: ${Object.keys(PROFILE_KEYS).join(', ')}.`);
  }
  return key as ProfileKey;
}

function checkValue(key: ProfileKey, value: string): string {
  if (key === 'base_url' && !/^https?:\/\/[^\s]+$/i.test(value)) throw usageError(`base_url must be an http(s) URL, not "${value}".`);
  if (key === 'timeout' && !(Number(value) > 0)) throw usageError(`timeout must be a number of seconds, not "${value}".`);
  // A relative data dir would move with the working directory of every later command.
  if (key === 'data_dir') return path.resolve(value);
  if (key === 'cookies_file') {
    // Only the path is kept (and shown); the cookies stay in their file, read when the live platform opens.
    const file = path.resolve(value);
    if (!fs.statSync(file, { throwIfNoEntry: false })?.isFile()) throw usageError(`cookies_file: ${file} is not a file.`, 'Export the cookies of a signed-in browser in Netscape (cookies.txt) format, and give that file.');
    return file;
  }
  return value;
}

export function registerConfig(program: Command, app: CliApp): void {
  const config = withExamples(program.command('config').description('Settings of the current profile'), [
    'tubekit config set base_url https://api.example.com',
    'tubekit --profile staging config set base_url http://127.0.0.1:8787',
    'tubekit config list',
  ]);
  const profile = () => app.settings.profileName;

  config
    .command('get <key>')
    .description('Print one setting (nothing when it is not set)')
    .addHelpText('before', examples(['tubekit config get base_url']))
    .action((key: string) => {
      const value = app.config.profile(profile())[checkKey(key)];
      if (value !== undefined) app.io.out(value);
    });

  config
    .command('set <key> <value>')
    .description(`Change a setting (${Object.keys(PROFILE_KEYS).join(', ')})`)
    .addHelpText('before', examples(['tubekit config set base_url http://127.0.0.1:8787', 'tubekit config set timeout 60', 'tubekit --profile staging config set data_dir ~/tubekit-staging', 'tubekit config set cookies_file ~/cookies.txt']))
    .action(async (key: string, value: string) => {
      const name = checkKey(key);
      const checked = checkValue(name, value);
      await app.config.update(profile(), (current) => ({ ...current, [name]: checked }));
      app.io.note(`${profile()}.${name} = ${checked}`);
    });

  config
    .command('unset <key>')
    .description('Remove a setting')
    .addHelpText('before', examples(['tubekit config unset base_url      # back to the embedded engine']))
    .action(async (key: string) => {
      const name = checkKey(key);
      await app.config.update(profile(), (current) => ({ ...current, [name]: undefined }));
    });

  config
    .command('list')
    .description('Every setting of the profile (the key only as set/unset)')
    .addHelpText('before', examples(['tubekit config list', 'tubekit --profile staging config list --json']))
    .action(() => {
      const current = app.config.profile(profile());
      const shown = Object.fromEntries(
        (Object.keys(PROFILE_KEYS) as ProfileKey[]).map((key) => [key, current[key] ?? null]),
      ) as Record<string, unknown>;
      shown.api_key = current.api_key ? 'set' : null;
      if (app.json) printJson(app.io, { profile: profile(), file: app.config.file, settings: shown });
      else printRecord(app.io, Object.entries(shown).map(([key, value]) => [key, value ?? '']));
    });
}
