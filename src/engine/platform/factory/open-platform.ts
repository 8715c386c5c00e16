/**
 * The single place that knows the platform implementations: which one a data dir uses, how to
 * open it, and the seed it brings the index. An implementation's code is imported only when a
 * platform is opened, so commands that read none (`folders list`) never load it.
 *
 * A data dir uses the sample world unless its `platform` setting says `live`
 * (`tubekit engine platform sample|live`, which never mixes the two in one data dir).
 */
import type Database from 'better-sqlite3';
import { ServiceError } from '../../../core/errors.js';
import type { IndexSeed } from '../../index/seed.js';
import type { Settings } from '../../store/settings.js';
import type { PlatformName, PlatformProvider } from '../platform.js';
import type { WorldSettings } from '../simulation.js';
import { DEFAULT_WORLD_TERMINATED } from '../sample/defaults.js';

export { DEFAULT_WORLD_TERMINATED };

/** The sample world a data dir gets until `tubekit engine seed` picks another. */
export const DEFAULT_WORLD: WorldSettings = { seed: 1, channels: 3000, terminated: DEFAULT_WORLD_TERMINATED };

/** Where the sample world's parameters are kept in the engine's settings. */
export const WORLD_SETTING = 'world';

/** Where the data dir's choice of platform is kept in the engine's settings. */
export const PLATFORM_SETTING = 'platform';

export interface OpenedPlatform {
  platform: PlatformProvider;
  /** What the platform hands the index; null for the live platform, whose index is not built yet. */
  seed: IndexSeed | null;
}

/** Which platform the data dir uses (sample unless set). */
export function dataDirPlatform(settings: Settings): PlatformName {
  return settings.get<PlatformName>(PLATFORM_SETTING) === 'live' ? 'live' : 'sample';
}

/** Whether the data dir holds data of a platform: a generated sample world; for live, any read (none is stored yet). */
function holdsDataOf(db: Database.Database, name: PlatformName): boolean {
  if (name === 'live') return false;
  // The sample world keeps its tables beside the engine's; their presence means one was generated.
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'world_meta'").get() !== undefined;
}

export type PlatformSwitch = { from: PlatformName; to: PlatformName; changed: boolean };

/**
 * Sets the data dir's platform. A data dir never mixes the two: one that holds data of the other
 * platform is refused (409), with the advice to use another data dir.
 */
export function switchPlatform(db: Database.Database, settings: Settings, to: PlatformName): PlatformSwitch {
  const from = dataDirPlatform(settings);
  if (from === to) return { from, to, changed: false };
  if (holdsDataOf(db, from)) {
    throw new ServiceError({
      status: 409,
      code: 'conflict',
      message: `This data dir holds data of the ${from} platform; a data dir never mixes the ${from} and ${to} platforms.`,
      hint: `Use another data dir for the ${to} platform: \`tubekit --data-dir <new dir> engine platform ${to}\` (or set TUBEKIT_DATA_DIR).`,
    });
  }
  settings.set(PLATFORM_SETTING, to);
  return { from, to, changed: true };
}

export interface PlatformContext {
  dataDir: string;
  /** Where the live platform's network settings come from (TUBEKIT_PLATFORM_ORIGIN, TUBEKIT_PROXY, …). */
  env: NodeJS.ProcessEnv;
}

/** The data dir's platform, opened (a sample world is generated on first use). */
export async function openPlatform(db: Database.Database, settings: Settings, context: PlatformContext): Promise<OpenedPlatform> {
  if (dataDirPlatform(settings) === 'live') {
    const [{ openLivePlatform }, { networkSettingsFromEnv }] = await Promise.all([import('../live/open.js'), import('../live/network-options.js')]);
    return { platform: await openLivePlatform({ dataDir: context.dataDir, network: networkSettingsFromEnv(context.env) }), seed: null };
  }
  const { openSampleWorld } = await import('../sample/open.js');
  return openSampleWorld(db, settings.get<WorldSettings>(WORLD_SETTING) ?? DEFAULT_WORLD);
}

/** Rebuilds the data dir's sample world with new parameters and keeps them (`tubekit engine seed`). */
export async function reseedSampleWorld(db: Database.Database, settings: Settings, world: WorldSettings): Promise<OpenedPlatform> {
  settings.set(WORLD_SETTING, world);
  const { regenerateSampleWorld } = await import('../sample/open.js');
  return regenerateSampleWorld(db, world);
}
