import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usageError } from '../core/client-errors.js';

/** Settings a profile may hold. The API key is set only through `auth login`. */
export const PROFILE_KEYS = {
  base_url: 'Base URL of the service (selects remote mode)',
  data_dir: 'Data dir of the embedded engine',
  store: 'Where the embedded engine keeps its state: postgres://user@host/db for a fleet (default: the data dir\'s SQLite file)',
  alt_provider_name: 'Wire name of the alt provider on the remote service (e.g. minimax)',
  timeout: 'Seconds one remote call may take, retries included (default: fitted to each call)',
  cookies_file: 'The live platform\'s cookies file (Netscape format), for a site that asks to sign in (TUBEKIT_COOKIES wins)',
  'analysis.provider': 'Vision model for video analysis by engines started here: openai-compatible or gemini',
  'analysis.base_url': 'Its API address (default: OpenAI\'s or Gemini\'s)',
  'analysis.model': 'Its model name',
  'analysis.api_key': 'Its key (read from a prompt or stdin, never printed)',
  'analysis.timeout': 'Seconds one request to it may take (default 300)',
  'elevenlabs.api_key': 'ElevenLabs key for provider=elevenlabs in engines started here (read from a prompt or stdin, never printed)',
  'elevenlabs.base_url': 'ElevenLabs API address (default https://api.elevenlabs.io)',
  'elevenlabs.timeout': 'Seconds one ElevenLabs request may take (default 180)',
  'minimax.api_key': 'MiniMax key: alt voices are cloned and spoken by MiniMax in engines started here (read from a prompt or stdin, never printed)',
  'minimax.base_url': 'MiniMax API address (default https://api.minimax.io)',
  'minimax.timeout': 'Seconds one MiniMax request may take (default 180)',
} as const;
export type ProfileKey = keyof typeof PROFILE_KEYS;

/** Settings whose value is a secret: never given on the command line, never printed. */
export const SECRET_PROFILE_KEYS: ReadonlySet<ProfileKey> = new Set(['analysis.api_key', 'elevenlabs.api_key', 'minimax.api_key']);

export interface Profile {
  base_url?: string;
  data_dir?: string;
  store?: string;
  alt_provider_name?: string;
  timeout?: string;
  cookies_file?: string;
  api_key?: string;
  'analysis.provider'?: string;
  'analysis.base_url'?: string;
  'analysis.model'?: string;
  'analysis.api_key'?: string;
  'analysis.timeout'?: string;
  'elevenlabs.api_key'?: string;
  'elevenlabs.base_url'?: string;
  'elevenlabs.timeout'?: string;
  'minimax.api_key'?: string;
  'minimax.base_url'?: string;
  'minimax.timeout'?: string;
}

interface ConfigFile {
  profiles?: Record<string, Profile>;
}

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.TUBEKIT_CONFIG_DIR) return env.TUBEKIT_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'tubekit');
}

/**
 * Profiles in one JSON file, written with mode 0600 because it may hold a key. Reads are a
 * plain file read (this runs on every command); writes go through conf, which writes atomically.
 */
export class ConfigStore {
  readonly file: string;

  constructor(private readonly env: NodeJS.ProcessEnv) {
    this.file = path.join(configDir(env), 'config.json');
  }

  private read(): ConfigFile {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as ConfigFile;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return {};
      if (code) throw usageError(`Cannot read the config file ${this.file} (${code === 'EISDIR' ? 'it is a directory' : code}).`, 'Point TUBEKIT_CONFIG_DIR at a directory you can write to.');
      throw usageError(`The config file ${this.file} is not valid JSON.`, 'Fix or delete it.');
    }
  }

  profile(name: string): Profile {
    return this.read().profiles?.[name] ?? {};
  }

  profiles(): Record<string, Profile> {
    return this.read().profiles ?? {};
  }

  async update(name: string, change: (profile: Profile) => Profile): Promise<void> {
    const { default: Conf } = await import('conf');
    const store = new Conf<ConfigFile>({
      projectName: 'tubekit',
      cwd: path.dirname(this.file),
      configName: 'config',
      configFileMode: 0o600,
      projectSuffix: '',
    });
    const profiles = { ...(store.get('profiles') ?? {}) };
    const next = change({ ...profiles[name] });
    for (const key of Object.keys(next) as (keyof Profile)[]) if (next[key] === undefined) delete next[key];
    profiles[name] = next;
    store.set('profiles', profiles);
    fs.chmodSync(this.file, 0o600);
  }
}
