/**
 * The settings a local command's job runs with: the environment variables a job reads (the vision
 * model, the speech providers, the live platform's network), the profile, `--proxy` and `--files-dir`.
 * The command hands them to the detached worker it starts; the job records only a salted digest of
 * them, so a worker started with other settings never runs it and no secret reaches the database.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE } from '../store/private-file.js';

/** Variables about where the engine is, not how a job runs: a worker sets them itself. */
const NOT_JOB_SETTINGS = new Set(['TUBEKIT_API_KEY', 'TUBEKIT_DATA_DIR', 'TUBEKIT_STORE', 'TUBEKIT_BASE_URL']);
/** The standard proxy variables the live platform falls back on. */
const PROXY_VARIABLES = new Set(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy']);

export const isJobSetting = (name: string) => (name.startsWith('TUBEKIT_') && !NOT_JOB_SETTINGS.has(name)) || PROXY_VARIABLES.has(name);

/** What the command says beside its environment. */
export interface CommandSettings {
  /** The profile whose settings it reads (`--profile`, else TUBEKIT_PROFILE). */
  profileName?: string;
  /** `--proxy`: wins over TUBEKIT_PROXY, so it travels as that variable. */
  proxy?: string;
  /** The live platform's cookies file the caller chose (travels as TUBEKIT_COOKIES). */
  cookiesFile?: string;
  /** `--files-dir`, when not the data dir. */
  filesDir?: string;
}

/** The job settings of a command, as environment variables a worker started with them reads the same way. */
export function jobEnvironment(env: NodeJS.ProcessEnv, command: CommandSettings): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value && isJobSetting(name)) settings[name] = value;
  settings.TUBEKIT_PROFILE = command.profileName ?? env.TUBEKIT_PROFILE ?? 'default';
  if (command.proxy !== undefined) settings.TUBEKIT_PROXY = command.proxy;
  if (command.cookiesFile) settings.TUBEKIT_COOKIES = command.cookiesFile;
  if (command.filesDir !== undefined) settings.TUBEKIT_FILES_DIR = command.filesDir;
  return settings;
}

/**
 * The environment of a worker started for these settings: this process's (PATH, HOME…) without any
 * job setting of its own, then the command's.
 */
export function workerEnvironment(base: NodeJS.ProcessEnv, settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) if (!isJobSetting(name)) env[name] = value;
  return { ...env, ...settings };
}

/** A digest of the settings, keyed by the data dir's own salt: equal settings, equal digest. */
export function settingsDigest(settings: Record<string, string>, salt: string): string {
  const entries = Object.entries(settings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHmac('sha256', salt).update(JSON.stringify(entries)).digest('hex');
}

export const saltFile = (dataDir: string) => path.join(dataDir, 'job-settings.salt');

/** The data dir's salt (created on first use, 0600): kept beside the database, never in it. */
export function dataDirSalt(dataDir: string): string {
  const file = saltFile(dataDir);
  const existing = readSalt(file);
  if (existing) return existing;
  fs.mkdirSync(dataDir, { recursive: true });
  // Written whole under another name, then linked: a concurrent reader never sees a partial salt,
  // and of two processes creating it at once, the first link wins and both read that one.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(temporary, randomBytes(32).toString('hex'), { mode: PRIVATE_FILE_MODE });
  try {
    fs.linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return readSalt(file)!;
}

function readSalt(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A command's job settings, and their digest on its data dir. */
export interface JobSettings {
  env: Record<string, string>;
  digest: string;
}

export function commandJobSettings(dataDir: string, env: NodeJS.ProcessEnv, command: CommandSettings): JobSettings {
  const settings = jobEnvironment(env, command);
  return { env: settings, digest: settingsDigest(settings, dataDirSalt(dataDir)) };
}
