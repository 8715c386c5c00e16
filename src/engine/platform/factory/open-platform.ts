/**
 * The single place that knows the platform implementations: which one a data dir uses, how to
 * open it, and the seed it brings the index. An implementation's code is imported only when a
 * platform is opened, so commands that read none (`folders list`) never load it.
 *
 * A data dir uses the sample world unless its `platform` setting says `live`
 * (`tubekit engine platform sample|live`, which never mixes the two in one data dir).
 */
import type Database from 'better-sqlite3';
import { badRequest, ServiceError } from '../../../core/errors.js';
import { isIsoDate } from '../../dates.js';
import { proxyForDisplay } from '../../../core/proxy-url.js';
import type { IndexSeed } from '../../index/seed.js';
import type { Settings } from '../../store/settings.js';
import type { PlatformName, PlatformProvider } from '../platform.js';
import type { AdvanceReport, WorldSettings } from '../simulation.js';
import type { Store, Transaction } from '../../store/store.js';
import { DEFAULT_WORLD_TERMINATED } from '../sample/defaults.js';

export { DEFAULT_WORLD_TERMINATED };

/** The sample world a data dir gets until `tubekit engine seed` picks another. */
export const DEFAULT_WORLD: WorldSettings = { seed: 1, channels: 3000, terminated: DEFAULT_WORLD_TERMINATED };

/** Where the sample world's parameters are kept in the engine's settings. */
export const WORLD_SETTING = 'world';

/**
 * The data dir's world parameters, with TUBEKIT_WORLD_DATE as the day of a world generated without
 * a reference date of its own (so a test run or a bug report gets the same world on any day); an
 * existing world is kept whatever the variable says.
 */
export function worldSettingsOf(settings: Settings, env: NodeJS.ProcessEnv, world?: WorldSettings): WorldSettings {
  const chosen = world ?? settings.get<WorldSettings>(WORLD_SETTING) ?? DEFAULT_WORLD;
  const pinned = env.TUBEKIT_WORLD_DATE;
  if (chosen.referenceDate || !pinned) return chosen;
  if (!isIsoDate(pinned) || pinned < '2007-01-01') {
    throw badRequest(`TUBEKIT_WORLD_DATE: "${pinned}" is not a date the sample world can start on.`, 'Give a date from 2007-01-01 on as YYYY-MM-DD, or unset it for today.');
  }
  return { ...chosen, defaultReferenceDate: pinned };
}

/** Where the data dir's choice of platform is kept in the engine's settings. */
export const PLATFORM_SETTING = 'platform';

export interface OpenedPlatform {
  platform: PlatformProvider;
  /** What the platform hands the index; null for the live platform, whose index fills its own stores from reads. */
  seed: IndexSeed | null;
}

/** Which platform the data dir uses (sample unless set). */
export function dataDirPlatform(settings: Settings): PlatformName {
  return settings.get<PlatformName>(PLATFORM_SETTING) === 'live' ? 'live' : 'sample';
}

/** What a platform switch looks at: the data dir's file and settings, and the engine's store. */
export interface PlatformDataHolder {
  readonly db: Database.Database;
  readonly store: Store;
  readonly localSettings: Settings;
  /** The live terminated channels (in the engine's store). */
  liveTerminatedStore(): Promise<{ count(): Promise<number> }>;
}

/**
 * Whether the data dir — and on a fleet, the shared store it works on — holds data of a platform:
 * a generated sample world (on a fleet: the fleet's world row); for live, any read stored in the
 * index or terminated channels recorded or imported (in the engine's store, so a fleet's too).
 */
async function holdsDataOf(holder: PlatformDataHolder, name: PlatformName): Promise<boolean> {
  if (name === 'live') {
    if ((await holder.store.get('SELECT 1 AS held FROM live_channels LIMIT 1')) !== undefined) return true;
    return (await (await holder.liveTerminatedStore()).count()) > 0;
  }
  // The sample world keeps its tables beside the engine's; their presence means one was generated.
  if (holder.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'world_meta'").get() !== undefined) return true;
  return worldIsShared(holder.store, holder.localSettings) && (await holder.store.get('SELECT 1 AS held FROM sample_world')) !== undefined;
}

export type PlatformSwitch = { from: PlatformName; to: PlatformName; changed: boolean };

/**
 * Sets the data dir's platform. A data dir never mixes the two: one that holds data of the other
 * platform (itself, or the fleet's store it works on) is refused (409), with the advice to use
 * another data dir.
 */
export async function switchPlatform(holder: PlatformDataHolder, to: PlatformName): Promise<PlatformSwitch> {
  const from = dataDirPlatform(holder.localSettings);
  if (from === to) return { from, to, changed: false };
  if (await holdsDataOf(holder, from)) throw mixRefused(`This data dir holds data of the ${from} platform`, from, to);
  await holder.localSettings.set(PLATFORM_SETTING, to);
  return { from, to, changed: true };
}

/** 409: what would put data of two platforms in one data dir. */
function mixRefused(why: string, from: PlatformName, to: PlatformName): ServiceError {
  return new ServiceError({
    status: 409,
    code: 'conflict',
    message: `${why}; a data dir never mixes the ${from} and ${to} platforms.`,
    hint: `Use another data dir for the ${to} platform: \`tubekit --data-dir <new dir> engine platform ${to}\` (or set TUBEKIT_DATA_DIR).`,
  });
}

/** The live fetch's refusal kinds, in words. */
const REFUSALS: Record<string, string> = { rate_limited: 'HTTP 429, too many requests', bot_check: 'a bot check', sign_in: 'a sign-in wall' };

/** What the caller of the engine says about the live platform, beside the environment. */
export interface PlatformOptions {
  /** A proxy given as a flag (`--proxy`): wins over TUBEKIT_PROXY and HTTPS_PROXY. */
  proxy?: string;
  /** A cookies file (Netscape format) the caller chose (TUBEKIT_COOKIES, else the profile's `cookies_file`). */
  cookiesFile?: string;
  /** Notices for `--verbose`: how the live platform reaches the site, and when it cools down after a refusal. */
  trace?: (line: string) => void;
}

export interface PlatformContext {
  dataDir: string;
  /** Where the live platform's network settings come from (TUBEKIT_PLATFORM_ORIGIN, TUBEKIT_PROXY, …). */
  env: NodeJS.ProcessEnv;
  options?: PlatformOptions;
  /** The live platform's "now" (the engine's clock); the sample world keeps its own. */
  clock?: () => number;
}

/** The data dir's platform, opened (a sample world is generated on first use). */
export async function openPlatform(db: Database.Database, settings: Settings, context: PlatformContext): Promise<OpenedPlatform> {
  if (dataDirPlatform(settings) === 'live') {
    const [{ openLivePlatform }, { networkSettingsFromEnv }] = await Promise.all([import('../live/open.js'), import('../live/network-options.js')]);
    const { proxy, cookiesFile, trace } = context.options ?? {};
    const network = networkSettingsFromEnv(context.env, { proxy, cookiesFile });
    trace?.(
      `live platform: requests to ${network.origin ?? 'the site'}` +
        `${network.proxy ? ` through the proxy ${proxyForDisplay(network.proxy)}` : ', no proxy'}` +
        `${network.cookiesFile ? `, cookies from ${network.cookiesFile}` : ''}, at most ${network.requestsPerSecond} a second to each host`,
    );
    const onCooldown = trace
      ? (host: string, waitMs: number, reason: string) =>
          trace(`live platform: ${host} refused a request (${REFUSALS[reason] ?? reason}); cooling down for ${(waitMs / 1000).toFixed(1)} s before trying again`)
      : undefined;
    return { platform: await openLivePlatform({ dataDir: context.dataDir, network, clock: context.clock, deps: { onCooldown } }), seed: null };
  }
  const { openSampleWorld } = await import('../sample/open.js');
  return openSampleWorld(db, worldSettingsOf(settings, context.env));
}

/**
 * A fleet's sample world (sample/shared-world.ts): its definition and clock in the fleet's store,
 * its tables in each data dir, brought to them before every read of the world.
 */
export interface SharedWorld {
  /** The platform as the fleet's store says now (one read of it); a new object when the world was rebuilt. */
  opened(): Promise<OpenedPlatform>;
  reseed(world: WorldSettings): Promise<OpenedPlatform>;
  /** `within` runs in the advance's transaction, over the moved world. */
  advance(ms: number, within?: (tx: Transaction, world: PlatformProvider, moved: AdvanceReport) => Promise<void>): Promise<AdvanceReport>;
}

/** Whether the data dir's sample world is a fleet's: on a PostgreSQL store (SQLite keeps the whole world in the data dir). */
export function worldIsShared(store: Store, settings: Settings): boolean {
  return store.dialect === 'postgres' && dataDirPlatform(settings) === 'sample';
}

/** Opens the fleet's sample world for this data dir (the data dir's own parameters start a fleet that has none). */
export async function openSharedWorld(db: Database.Database, store: Store, settings: Settings, env: NodeJS.ProcessEnv): Promise<SharedWorld> {
  const { SharedSampleWorld } = await import('../sample/shared-world.js');
  return SharedSampleWorld.open(db, store, worldSettingsOf(settings, env));
}

/** Rebuilds the data dir's sample world (a fleet's: `shared`) with new parameters and keeps them (`tubekit engine seed`). */
export async function reseedSampleWorld(
  db: Database.Database,
  settings: Settings,
  env: NodeJS.ProcessEnv,
  world: WorldSettings,
  shared?: SharedWorld,
): Promise<OpenedPlatform> {
  if (dataDirPlatform(settings) === 'live') throw mixRefused('This data dir uses the live platform: a sample world cannot be generated in it', 'live', 'sample');
  settings.set(WORLD_SETTING, world);
  const pinned = worldSettingsOf(settings, env, world);
  if (shared) return shared.reseed(pinned);
  const { regenerateSampleWorld } = await import('../sample/open.js');
  return regenerateSampleWorld(db, pinned);
}
