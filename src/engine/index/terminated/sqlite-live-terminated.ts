/**
 * The live terminated store on the data dir's SQLite (live-store.ts writes, reader.ts searches),
 * as a LiveTerminatedRepository. Its tables are made on the first write or search, not before:
 * a dry-run import asks `known` without making them.
 */
import type { Db } from '../../store/database.js';
import type { LiveTerminatedRepository } from './live-repository.js';
import { liveTerminatedTablesExist } from './live-schema.js';
import { openLiveTerminated } from './live-source.js';
import { LiveTerminatedStore, type TerminatedEntry } from './live-store.js';
import type { TerminatedQuery, TerminatedReader } from './reader.js';

export class SqliteLiveTerminated implements LiveTerminatedRepository {
  private reader?: TerminatedReader;
  private store?: LiveTerminatedStore;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  private open(): TerminatedReader {
    return (this.reader ??= openLiveTerminated(this.db, this.now));
  }

  async search(query: TerminatedQuery) {
    return this.open().search(query);
  }

  async byId(channelId: string) {
    return this.open().byId(channelId);
  }

  async write(entries: readonly TerminatedEntry[]) {
    const store = (this.store ??= new LiveTerminatedStore(this.db, this.now));
    return this.db.transaction(() => store.write(entries))();
  }

  async known(channelIds: readonly string[]): Promise<Set<string>> {
    if (!liveTerminatedTablesExist(this.db)) return new Set();
    const store = (this.store ??= new LiveTerminatedStore(this.db, this.now));
    return new Set(channelIds.filter((id) => store.has(id)));
  }

  async count(): Promise<number> {
    return liveTerminatedTablesExist(this.db) ? this.open().count : 0;
  }
}
