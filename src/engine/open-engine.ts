import { Engine, type EngineOptions } from './engine.js';
import { openFleetStore, type OpenFleetStoreOptions } from './store/open-store.js';
import type { StoreLocation } from './store/store-location.js';

export interface OpenEngineOptions extends EngineOptions {
  /** Where state lives (default: the data dir's SQLite file). */
  store?: StoreLocation;
  /** How a fleet store is brought up: migrations applied (serve) or required, and how long to wait for it. */
  storeOpening?: Partial<OpenFleetStoreOptions>;
}

/**
 * Opens the engine on its store: the data dir's SQLite file (the default, synchronous underneath)
 * or a fleet's PostgreSQL, connected, migrated or checked, and its settings loaded first.
 */
export async function openEngine(options: OpenEngineOptions): Promise<Engine> {
  const { store: location, storeOpening, ...engineOptions } = options;
  if (!location || location.kind === 'sqlite') {
    return Engine.open({ ...engineOptions, databaseFile: location?.file ?? engineOptions.databaseFile, storeUrl: location?.file && `sqlite:${location.file}` });
  }
  const fleet = await openFleetStore(location, { migrations: 'require', ...storeOpening });
  try {
    return Engine.open({ ...engineOptions, fleet, storeUrl: location.url });
  } catch (error) {
    await fleet.store.close();
    throw error;
  }
}
