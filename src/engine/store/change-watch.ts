import type { Db } from './database.js';
import { preparedFor } from './prepared.js';

/** A number that moves whenever the data a remembered read depends on may have changed. */
export interface ChangeSignal {
  generation(): number;
}

/** A signal that always moves: nothing is remembered (a store that cannot see the writes). */
export const ALWAYS_CHANGED: ChangeSignal = {
  generation: (() => {
    let next = 0;
    return () => ++next;
  })(),
};

/**
 * Whether anything may have been written to the database since a value was read, so a read on a
 * hot path (a user's folders, health's job counts) can be remembered without ever being stale. A
 * write by this connection moves `total_changes()`, which takes no lock and costs a fraction of a
 * query; a commit by another connection (a CLI, a worker process) moves `PRAGMA data_version`,
 * which needs a read transaction, so it is read once per turn of the event loop: the requests one
 * turn handles arrived together, and another process's commit is seen from the next turn on.
 */
export class ChangeWatch implements ChangeSignal {
  private readonly ownChanges;
  private readonly dataVersion;
  private changes = -1;
  private version = -1;
  private versionReadThisTurn = false;
  private current = 0;

  constructor(db: Db) {
    this.ownChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  /** A number that moves whenever the database may have changed since it was last asked for. */
  generation(): number {
    const changes = this.ownChanges.get()!;
    let version = this.version;
    if (!this.versionReadThisTurn) {
      this.versionReadThisTurn = true;
      setImmediate(() => {
        this.versionReadThisTurn = false;
      }).unref();
      version = this.dataVersion.get()!;
    }
    if (changes !== this.changes || version !== this.version) {
      this.changes = changes;
      this.version = version;
      this.current += 1;
    }
    return this.current;
  }
}

/** The watch of a connection, one per connection. */
export const changeWatch = preparedFor((db) => new ChangeWatch(db));

/** Keys remembered at most by one RememberedReads; past this the memory is simply cleared. */
const REMEMBERED_KEYS_MAX = 1_000;

/**
 * Reads on a hot path (a user's folders, health's job counts), each remembered by key until the
 * database may have changed (ChangeWatch): a client polling a read that nothing changes costs no
 * query, and never sees a stale answer. What `read` returns is shared by every later caller, so it
 * must not be changed: make it frozen.
 */
export class RememberedReads<K, V> {
  private readonly watch: ChangeSignal;
  private generation = -1;
  private readonly values = new Map<K, V>();

  constructor(
    /** A SQLite connection (any write to it moves the signal) or a store's signal for a topic. */
    source: Db | ChangeSignal,
    private readonly read: (key: K) => V,
  ) {
    this.watch = 'generation' in source ? source : changeWatch(source);
  }

  /** Drops `key` if it still holds `value` (a read that failed). */
  forget(key: K, value: V): void {
    if (this.values.get(key) === value) this.values.delete(key);
  }

  get(key: K): V {
    const generation = this.watch.generation();
    if (generation !== this.generation) {
      this.generation = generation;
      this.values.clear();
    }
    let value = this.values.get(key);
    if (value === undefined) {
      value = this.read(key);
      if (this.values.size >= REMEMBERED_KEYS_MAX) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}

/**
 * RememberedReads for reads through the store (asynchronous on Postgres): the promise is what is
 * remembered, so concurrent callers share one query, and a read that fails is forgotten.
 */
export class RememberedStoreReads<K, V> {
  private readonly reads: RememberedReads<K, Promise<V>>;

  constructor(signal: ChangeSignal, read: (key: K) => Promise<V>) {
    this.reads = new RememberedReads(signal, (key: K) => {
      const value = read(key);
      value.catch(() => this.forget(key, value));
      return value;
    });
  }

  get(key: K): Promise<V> {
    return this.reads.get(key);
  }

  private forget(key: K, value: Promise<V>): void {
    this.reads.forget(key, value);
  }
}
