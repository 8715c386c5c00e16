/**
 * The single place that knows the platform implementations: which one a data dir uses, how to
 * open it, and the seed it brings the index. An implementation's code is imported only when a
 * platform is opened, so commands that read none (`folders list`) never load it.
 *
 * A data dir uses the sample world unless its `platform` setting says `live`. The command that
 * switches a data dir (`tubekit engine platform sample|live`) is not built yet.
 */
import type Database from 'better-sqlite3';
import type { IndexSeed } from '../../index/seed.js';
import type { Settings } from '../../store/settings.js';
import type { PlatformName, PlatformProvider } from '../platform.js';
import type { WorldSettings } from '../simulation.js';
import { DEFAULT_WORLD_TERMINATED } from '../sample/defaults.js';

export { DEFAULT_WORLD_TERMINATED };

/** The sample world a data dir gets until `tubekit engine seed` picks another. */
export const DEFAULT_WORLD: WorldSettings = { seed: 1, channels: 3000, terminated: DEFAULT_WORLD_TERMINATED };

/** Where the sample world's parameters are kept in the engine's settings. */
const WORLD_SETTING = 'world';

/** Where the data dir's choice of platform is kept in the engine's settings. */
const PLATFORM_SETTING = 'platform';

export interface OpenedPlatform {
  platform: PlatformProvider;
  /** What the platform hands the index; null for the live platform, whose index is not built yet. */
  seed: IndexSeed | null;
}

/** Which platform the data dir uses (sample unless set). */
export function dataDirPlatform(settings: Settings): PlatformName {
  return settings.get<PlatformName>(PLATFORM_SETTING) === 'live' ? 'live' : 'sample';
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
