import os from 'node:os';
import path from 'node:path';

/** Where the engine keeps its database and files: `$XDG_DATA_HOME/tubekit` (or ~/.local/share/tubekit). */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME || path.join(os.homedir(), '.local', 'share');
  return path.join(base, 'tubekit');
}

export const databaseFile = (dataDir: string) => path.join(dataDir, 'tubekit.db');
export const defaultKeyFile = (dataDir: string) => path.join(dataDir, 'default.key');
export const cdnDir = (dataDir: string) => path.join(dataDir, 'cdn');
/** Uploaded voice samples: private, never served. */
export const samplesDir = (dataDir: string) => path.join(dataDir, 'samples');
/** Work in progress (renders): swept of entries whose process is gone (see scratch.ts). */
export const scratchDir = (dataDir: string) => path.join(dataDir, 'scratch');
