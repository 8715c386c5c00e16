import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ANALYSIS_PROVIDERS } from '../../engine/features/analysis/providers/provider-config.js';
import type { CliApp } from '../app.js';
import { PROFILE_KEYS, SECRET_PROFILE_KEYS, type ProfileKey } from '../config.js';
import { usageError } from '../../core/client-errors.js';
import { examples, withExamples } from '../help.js';
import { printJson, printRecord } from '../output.js';
import { readSecret } from '../read-secret.js';

function checkKey(key: string): ProfileKey {
  if (key === 'api_key') throw usageError('The API key is not set with `config`.', 'Use `tubekit auth login`, or TUBEKIT_API_KEY.');
  if (!(key in PROFILE_KEYS)) {
    throw usageError(`Unknown setting "${key}". Settings: ${Object.keys(PROFILE_KEYS).join(', ')}.`);
  }
  return key as ProfileKey;
}

const isHttpUrl = (value: string) => /^https?:\/\/[^\s]+$/i.test(value);

function checkValue(key: ProfileKey, value: string): string {
  if ((key === 'base_url' || key.endsWith('.base_url')) && !isHttpUrl(value)) throw usageError(`${key} must be an http(s) URL, not "${value}".`);
  if ((key === 'timeout' || key.endsWith('.timeout')) && !(Number(value) > 0)) throw usageError(`${key} must be a number of seconds, not "${value}".`);
  if (key === 'analysis.provider' && !(ANALYSIS_PROVIDERS as readonly string[]).includes(value)) {
    throw usageError(`analysis.provider must be one of ${ANALYSIS_PROVIDERS.join(', ')}, not "${value}".`);
  }
  if (value.trim() === '') throw usageError(`${key} cannot be empty.`, `To remove it: tubekit config unset ${key}`);
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

const SECRET_LABELS: Partial<Record<ProfileKey, string>> = { 'analysis.api_key': 'vision model API key', 'elevenlabs.api_key': 'ElevenLabs API key', 'minimax.api_key': 'MiniMax API key' };

/** How a setting shows: a secret only as whether it is set. */
const shown = (key: ProfileKey, value: string | undefined) => (value !== undefined && SECRET_PROFILE_KEYS.has(key) ? 'set' : value);

export function registerConfig(program: Command, app: CliApp): void {
  const config = withExamples(program.command('config').description('Settings of the current profile'), [
    'tubekit config set base_url https://api.example.com',
    'tubekit --profile staging config set base_url http://127.0.0.1:8787',
    'tubekit config set analysis.provider gemini && tubekit config set analysis.api_key   # prompts for the key',
    'tubekit config list',
  ]);
  const profile = () => app.settings.profileName;

  config
    .command('get <key>')
    .description('Print one setting (nothing when it is not set; a key only as "set")')
    .addHelpText('before', examples(['tubekit config get base_url', 'tubekit config get analysis.api_key      # "set", never the key']))
    .action((key: string) => {
      const name = checkKey(key);
      const value = shown(name, app.config.profile(profile())[name]);
      if (value !== undefined) app.io.out(value);
    });

  config
    .command('set <key> [value]')
    .description(`Change a setting (${Object.keys(PROFILE_KEYS).join(', ')}); the *.api_key settings are read from a prompt or stdin`)
    .addHelpText(
      'before',
      examples([
        'tubekit config set base_url http://127.0.0.1:8787',
        'tubekit config set timeout 60',
        'tubekit --profile staging config set data_dir ~/tubekit-staging',
        'tubekit config set cookies_file ~/cookies.txt',
        'tubekit config set analysis.provider openai-compatible',
        'tubekit config set analysis.base_url http://127.0.0.1:11434/v1 && tubekit config set analysis.model qwen2.5vl:7b',
        'tubekit config set analysis.api_key < ~/.gemini-key        # or type it at the hidden prompt',
        'tubekit config set elevenlabs.api_key < ~/.elevenlabs-key  # provider=elevenlabs in engines started here',
      ]),
    )
    .action(async (key: string, value: string | undefined) => {
      const name = checkKey(key);
      let checked: string;
      if (SECRET_PROFILE_KEYS.has(name)) {
        // On the command line a key would land in the shell's history and in `ps` for anyone to read.
        if (value !== undefined && value !== '-') {
          throw usageError(`${name} is never given on the command line.`, `Type it at the prompt (tubekit config set ${name}) or pipe it: tubekit config set ${name} < keyfile`);
        }
        checked = await readSecret(app, SECRET_LABELS[name] ?? 'API key', `tubekit config set ${name} < keyfile`);
        if (!checked) throw usageError('The key is empty.');
        if (/\s/.test(checked)) throw usageError('The key contains spaces or line breaks; pass exactly one key.');
      } else {
        if (value === undefined) throw usageError(`Give the value: tubekit config set ${name} <value>`);
        checked = checkValue(name, value);
      }
      await app.config.update(profile(), (current) => ({ ...current, [name]: checked }));
      app.io.note(`${profile()}.${name} = ${shown(name, checked)}${SECRET_PROFILE_KEYS.has(name) ? ` (${app.config.file}, mode 0600)` : ''}`);
    });

  config
    .command('unset <key>')
    .description('Remove a setting')
    .addHelpText('before', examples(['tubekit config unset base_url      # back to the embedded engine', 'tubekit config unset analysis.provider      # back to the sample world\'s stand-in analyst']))
    .action(async (key: string) => {
      const name = checkKey(key);
      await app.config.update(profile(), (current) => ({ ...current, [name]: undefined }));
    });

  config
    .command('list')
    .description('Every setting of the profile (keys only as set/unset)')
    .addHelpText('before', examples(['tubekit config list', 'tubekit --profile staging config list --json']))
    .action(() => {
      const current = app.config.profile(profile());
      const settings = Object.fromEntries(
        (Object.keys(PROFILE_KEYS) as ProfileKey[]).map((key) => [key, shown(key, current[key]) ?? null]),
      ) as Record<string, unknown>;
      settings.api_key = current.api_key ? 'set' : null;
      if (app.json) printJson(app.io, { profile: profile(), file: app.config.file, settings });
      else printRecord(app.io, Object.entries(settings).map(([key, value]) => [key, value ?? '']));
    });
}
