import { proxyForDisplay, proxyUrlProblem } from '../core/proxy-url.js';
import { defaultDataDir } from '../engine/paths.js';
import { parseStoreLocation, StoreLocationError, type StoreLocation } from '../engine/store/store-location.js';
import { ConfigStore, type Profile } from './config.js';
import { usageError } from '../core/client-errors.js';
import { readUserFile } from './files.js';

/** Options every command accepts, before or after the subcommand. */
export interface GlobalFlags {
  json?: boolean;
  local?: boolean;
  remote?: boolean;
  baseUrl?: string;
  profile?: string;
  dataDir?: string;
  store?: string;
  filesDir?: string;
  input?: boolean;
  quiet?: boolean;
  verbose?: boolean;
  color?: boolean;
  requestTimeout?: string;
  jq?: string;
  proxy?: string;
}

export type KeySource = 'environment' | 'key file' | 'profile' | 'default local user' | 'none';

/** Flags > environment > profile > defaults, resolved once per run. */
export interface Settings {
  json: boolean;
  mode: 'local' | 'remote';
  profileName: string;
  profile: Profile;
  baseUrl?: string;
  dataDir: string;
  /** Where the embedded engine keeps its state (--store > TUBEKIT_STORE > the profile's `store`). */
  store: StoreLocation;
  /** Where the embedded engine keeps its files (--files-dir > TUBEKIT_FILES_DIR; default: the data dir). */
  filesDir: string;
  apiKey?: string;
  keySource: KeySource;
  altProviderName?: string;
  timeoutMs?: number;
  /** The live platform's network as the user chose it (the engine reads TUBEKIT_PROXY, HTTPS_PROXY itself). */
  platform: { proxy?: string; cookiesFile?: string };
}

export function resolveSettings(flags: GlobalFlags, env: NodeJS.ProcessEnv, config: ConfigStore): Settings {
  if (flags.local && flags.remote) throw usageError('--local and --remote cannot be used together.');
  const profileName = flags.profile ?? env.TUBEKIT_PROFILE ?? 'default';
  const profile = config.profile(profileName);
  const baseUrl = flags.baseUrl ?? (env.TUBEKIT_BASE_URL || undefined) ?? profile.base_url;
  if (flags.remote && !baseUrl) {
    throw usageError('--remote needs a base URL.', 'Pass --base-url, set TUBEKIT_BASE_URL, or `tubekit config set base_url <url>`.');
  }
  if (baseUrl && !/^https?:\/\//i.test(baseUrl)) {
    throw usageError(`The base URL "${baseUrl}" is not an http(s) URL.`);
  }
  const mode = flags.local ? 'local' : baseUrl ? 'remote' : 'local';
  if (flags.dataDir !== undefined && flags.dataDir.trim() === '') {
    throw usageError('--data-dir is empty; give the directory of the embedded engine\'s data.', 'Leave it out to use the default data dir, or set TUBEKIT_DATA_DIR.');
  }
  const dataDir = flags.dataDir ?? (env.TUBEKIT_DATA_DIR || undefined) ?? profile.data_dir ?? defaultDataDir(env);
  const store = resolveStore(flags, env, profile);
  if (flags.filesDir !== undefined && flags.filesDir.trim() === '') {
    throw usageError('--files-dir is empty; give the directory for the engine\'s files (a fleet\'s shared mount).', 'Leave it out to keep the files in the data dir, or set TUBEKIT_FILES_DIR.');
  }
  const filesDir = flags.filesDir ?? (env.TUBEKIT_FILES_DIR || undefined) ?? dataDir;
  const { apiKey, keySource } = resolveKey(mode, env, profile);
  const timeoutSeconds = requestTimeoutSeconds(flags, env, profile);
  if (flags.proxy !== undefined) {
    const problem = proxyUrlProblem(flags.proxy);
    if (problem) throw usageError(`--proxy: "${proxyForDisplay(flags.proxy)}" ${problem}.`, 'Give the proxy as http://host:port (or https://, with user:password@ when it needs them).');
  }
  return {
    json: Boolean(flags.json) || flags.jq !== undefined,
    mode,
    profileName,
    profile,
    baseUrl: mode === 'remote' ? baseUrl : undefined,
    dataDir,
    store,
    filesDir,
    apiKey,
    keySource,
    altProviderName: profile.alt_provider_name,
    timeoutMs: timeoutSeconds === undefined ? undefined : timeoutSeconds * 1000,
    platform: { proxy: flags.proxy, cookiesFile: env.TUBEKIT_COOKIES || profile.cookies_file },
  };
}

/** --store > TUBEKIT_STORE > the profile's `store`; nothing means the data dir's SQLite file. */
function resolveStore(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile): StoreLocation {
  const [value, source] =
    flags.store !== undefined ? [flags.store, '--store'] : env.TUBEKIT_STORE ? [env.TUBEKIT_STORE, 'TUBEKIT_STORE'] : [profile.store, "the profile's store setting"];
  try {
    return parseStoreLocation(value);
  } catch (error) {
    if (!(error instanceof StoreLocationError)) throw error;
    throw usageError(`${source}: ${error.message}`, 'Leave it out to keep everything in the data dir.');
  }
}

/** --request-timeout > TUBEKIT_TIMEOUT > the profile's `timeout`; a bad value is named with where it came from. */
function requestTimeoutSeconds(flags: GlobalFlags, env: NodeJS.ProcessEnv, profile: Profile): number | undefined {
  const [value, source] =
    flags.requestTimeout !== undefined
      ? [flags.requestTimeout, '--request-timeout']
      : env.TUBEKIT_TIMEOUT
        ? [env.TUBEKIT_TIMEOUT, 'TUBEKIT_TIMEOUT']
        : [profile.timeout, 'the profile\'s timeout setting'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(value) || !(seconds > 0)) throw usageError(`${source} must be a positive number of seconds, not "${value}".`);
  return seconds;
}

function resolveKey(mode: 'local' | 'remote', env: NodeJS.ProcessEnv, profile: Profile): { apiKey?: string; keySource: KeySource } {
  if (env.TUBEKIT_API_KEY) return { apiKey: env.TUBEKIT_API_KEY.trim(), keySource: 'environment' };
  if (env.TUBEKIT_API_KEY_FILE) {
    return { apiKey: readUserFile(env.TUBEKIT_API_KEY_FILE, 'key file (TUBEKIT_API_KEY_FILE)').toString('utf8').trim(), keySource: 'key file' };
  }
  if (mode === 'remote') {
    return profile.api_key ? { apiKey: profile.api_key, keySource: 'profile' } : { keySource: 'none' };
  }
  return { keySource: 'default local user' };
}
