import type { Db } from './database.js';
import type { Store } from './store.js';

/** Where a change of one key is announced to every process of a fleet (Postgres). */
export const CHANGED_CHANNEL = 'tubekit_settings';

interface SettingsSource {
  read(key: string): string | undefined;
  write(key: string, value: string | undefined): Promise<void>;
}

type ChangeListener = (key: string | undefined) => void;

/**
 * Engine-wide settings (limit overrides, faults, world parameters), shared by every process.
 * Reads are synchronous — faults and limits are consulted on hot paths — so each store provides
 * them its own way: SQLite reads the row each time; Postgres keeps every row in memory, loaded
 * at open and refreshed from LISTEN/NOTIFY whenever any process changes one.
 */
export class Settings {
  private readonly listeners = new Set<ChangeListener>();

  private constructor(private readonly source: SettingsSource) {}

  /**
   * Called when another process changed a setting (`undefined`: maybe any of them). Only a fleet's
   * store announces changes; on SQLite nothing is called, as before.
   */
  onChange(listener: ChangeListener): void {
    this.listeners.add(listener);
  }

  private changed(key: string | undefined): void {
    for (const listener of this.listeners) listener(key);
  }

  /** Settings read straight from the data dir's SQLite file. */
  static onSqlite(db: Db): Settings {
    const getStatement = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    const setStatement = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
    const deleteStatement = db.prepare('DELETE FROM settings WHERE key = ?');
    return new Settings({
      read: (key) => getStatement.get(key)?.value,
      write: async (key, value) => {
        if (value === undefined) deleteStatement.run(key);
        else setStatement.run(key, value);
      },
    });
  }

  /** Settings of a fleet's store: every row in memory, kept current by notifications. */
  static async onStore(store: Store): Promise<Settings> {
    const rows = new Map<string, string>();
    // Writes of this process in flight, per key: a reload must not bring back the value one replaces
    // (a notification of an older write arriving while a newer one is being saved).
    const writes = new Map<string, number>();
    let writesStarted = 0;
    const queued = new Map<string, Promise<void>>();
    const reload = async (key?: string) => {
      const startedBefore = writesStarted;
      const found = key
        ? await store.all<{ key: string; value: string }>('SELECT key, value FROM settings WHERE key = ?', [key])
        : await store.all<{ key: string; value: string }>('SELECT key, value FROM settings');
      // A write started meanwhile knows better than what was read before it.
      const stale = (name: string) => (writes.get(name) ?? 0) > 0 || writesStarted !== startedBefore;
      if (key) {
        if (stale(key)) return;
        if (found[0]) rows.set(key, found[0].value);
        else rows.delete(key);
        return;
      }
      const seen = new Set(found.map((row) => row.key));
      for (const name of [...rows.keys()]) if (!seen.has(name) && !stale(name)) rows.delete(name);
      for (const row of found) if (!stale(row.key)) rows.set(row.key, row.value);
    };
    let settings: Settings | undefined;
    // Listen before the first read, so no change falls between the two.
    await store.listen(CHANGED_CHANNEL, (key) => {
      reload(key || undefined).then(() => settings?.changed(key || undefined), () => undefined);
    });
    await reload();
    settings = new Settings({
      read: (key) => rows.get(key),
      write: async (key, value) => {
        // This process sees its own change at once, as it would on SQLite; others on the notification.
        writesStarted += 1;
        writes.set(key, (writes.get(key) ?? 0) + 1);
        if (value === undefined) rows.delete(key);
        else rows.set(key, value);
        // One key's writes are saved in the order they were made (the pool's connections would not keep it).
        const saving = (queued.get(key) ?? Promise.resolve()).then(async () => {
          try {
            if (value === undefined) await store.run('DELETE FROM settings WHERE key = ?', [key]);
            else await store.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
          } finally {
            writes.set(key, writes.get(key)! - 1);
          }
        });
        queued.set(key, saving.catch(() => undefined));
        await saving;
        await store.notify(CHANGED_CHANNEL, key);
      },
    });
    return settings;
  }

  get<T>(key: string): T | undefined {
    const value = this.source.read(key);
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  /** Saved when the promise resolves (on SQLite, already when the call returns). */
  set(key: string, value: unknown): Promise<void> {
    return this.source.write(key, JSON.stringify(value));
  }

  delete(key: string): Promise<void> {
    return this.source.write(key, undefined);
  }
}
