/**
 * The live store of terminated channels behind one interface, per store dialect: the data dir's
 * SQLite (live-store.ts, FTS5 search through reader.ts) or a fleet's PostgreSQL (postgres/:
 * tsvector search with a GIN index). The engine opens one when it first needs it
 * (`openLiveTerminatedRepository`), by its store's dialect; features only see this interface.
 * Both answer alike: the same records merge the same way, the same words match, and searches
 * sort, filter, page and count the same.
 */
import type { Db } from '../../store/database.js';
import type { Store } from '../../store/store.js';
import type { TerminatedChannel, TerminatedQuery, TerminatedSearchResult } from './reader.js';
import type { TerminatedEntry } from './live-store.js';

/** What features ask of terminated channels: keyword search and one channel by id. */
export interface TerminatedIndex {
  search(query: TerminatedQuery): Promise<TerminatedSearchResult>;
  byId(channelId: string): Promise<TerminatedChannel | null>;
}

export interface LiveTerminatedRepository extends TerminatedIndex {
  /** Records each channel (new ones loaded, stored ones merged: live-store.ts), all in one transaction. */
  write(entries: readonly TerminatedEntry[]): Promise<{ loaded: number; updated: number }>;
  /** Which of these channels are stored (writes nothing, makes no tables). */
  known(channelIds: readonly string[]): Promise<Set<string>>;
  /** Channels stored. */
  count(): Promise<number>;
}

/** The live terminated store of the engine's store: Postgres when the engine runs on one, else the data dir's SQLite. */
export async function openLiveTerminatedRepository(db: Db, store: Store, now: () => number): Promise<LiveTerminatedRepository> {
  if (store.dialect === 'postgres') {
    const { PostgresLiveTerminated } = await import('./postgres/postgres-live-terminated.js');
    return new PostgresLiveTerminated(store, now);
  }
  const { SqliteLiveTerminated } = await import('./sqlite-live-terminated.js');
  return new SqliteLiveTerminated(db, now);
}
