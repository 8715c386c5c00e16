import { ServiceError } from '../../core/errors.js';
import { ensureOperatorAccount } from '../identity/operator-account.js';
import { postgresMigrations } from './postgres-migrations.js';
import { migratePostgres, pendingPostgresMigrations, type MigrationReport } from './postgres-migrate.js';
import { isUnreachable, PostgresStore } from './postgres-store.js';
import { Settings } from './settings.js';
import type { StoreLocation } from './store-location.js';
import type { Executor } from './store.js';

export interface FleetStore {
  store: PostgresStore;
  settings: Settings;
  migration?: MigrationReport;
}

export interface OpenFleetStoreOptions {
  /**
   * 'apply' (`engine migrate`, `serve --migrate`) applies pending migrations; 'require' refuses to
   * run with some pending; 'apply-if-empty' (serve's default) applies them to a database that has
   * none yet and otherwise requires them, so a new version's first server never migrates a fleet
   * by surprise.
   */
  migrations: 'apply' | 'require' | 'apply-if-empty';

  /** How long to wait for an unreachable database before giving up (serve waits; commands do not). */
  waitMs?: number;
  /** Told once when the database is not there yet and the open starts waiting. */
  onWait?: (message: string) => void;
}

const RETRY_EVERY_MS = 500;

/**
 * Opens the fleet's PostgreSQL store: connects (waiting up to `waitMs` for a database that is not
 * there yet), brings or checks its schema, and loads the shared settings. The driver is loaded
 * only here, so commands on the default SQLite store never pay for it.
 */
export async function openFleetStore(location: Extract<StoreLocation, { kind: 'postgres' }>, options: OpenFleetStoreOptions): Promise<FleetStore> {
  const pg = (await import('pg')).default;
  const store = new PostgresStore(pg, location.url, location.description);
  try {
    await waitForDatabase(store, options);
    let migration: MigrationReport | undefined;
    // Whatever migrates the schema makes the operator account too, so no later process mints one.
    const then = (connection: Executor) => ensureOperatorAccount(connection);
    if (options.migrations === 'apply') {
      migration = await migratePostgres(store, postgresMigrations, { then });
    } else {
      if (options.migrations === 'apply-if-empty') migration = await migratePostgres(store, postgresMigrations, { onlyIfEmpty: true, then });
      const pending = await pendingPostgresMigrations(store, postgresMigrations);
      if (pending.length > 0) {
        throw new ServiceError({
          status: 503,
          code: 'store_not_migrated',
          message: `The database ${location.description} lacks ${pending.length} migration${pending.length === 1 ? '' : 's'} of this version of tubekit (${pending.map((entry) => entry.version).join(', ')}).`,
          hint: `Run \`tubekit engine migrate --store ${location.description}\` first (see the README's "Upgrading a fleet without downtime"), or start serve with --migrate.`,
        });
      }
    }
    const settings = await Settings.onStore(store);
    return { store, settings, migration };
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function waitForDatabase(store: PostgresStore, options: OpenFleetStoreOptions): Promise<void> {
  const deadline = Date.now() + (options.waitMs ?? 0);
  let told = false;
  for (;;) {
    try {
      await store.ping();
      return;
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      if (Date.now() + RETRY_EVERY_MS > deadline) throw gaveUp(store.description, options.waitMs ?? 0, error);
      if (!told) options.onWait?.(`Waiting for the database ${store.description} (${(error as Error).message})…`);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
    }
  }
}

/**
 * The database could not be reached at opening: said as what it is for a process that is starting
 * (it gives up and exits), not as a request's "resumes by itself".
 */
function gaveUp(description: string, waitedMs: number, error: unknown): ServiceError {
  const cause = ((error as { cause?: unknown }).cause ?? error) as Error;
  const what = waitedMs >= 1000 ? `Gave up after waiting ${Math.round(waitedMs / 1000)} s for the database ${description}: it` : `The database ${description}`;
  return new ServiceError({
    status: 503,
    code: 'store_unavailable',
    message: `${what} cannot be reached (${cause?.message ?? cause}).`,
    hint:
      waitedMs >= 1000
        ? 'Check the URL (--store or TUBEKIT_STORE) and that the database is up, then start again (--wait-for-store <seconds> waits longer).'
        : 'Check the URL (--store or TUBEKIT_STORE) and that the database is up, then run the command again.',
    cause: error,
  });
}
