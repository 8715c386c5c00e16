import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Statement } from 'better-sqlite3';
import { changeWatch, type ChangeSignal } from './change-watch.js';
import type { Db } from './database.js';
import type { Executor, SqlValue, Store, Transaction } from './store.js';
import { insideTransaction, refuseInsideTransaction } from './transaction-scope.js';

/** Statements kept per connection: repositories send the same few dozen texts over and over. */
const STATEMENT_CACHE_MAX = 500;

/**
 * The store over the data dir's SQLite file (better-sqlite3, synchronous). Calls answer at once;
 * the promise is only the shape the interface shares with Postgres.
 *
 * A transaction holds the connection between awaits, so everything else that reaches this store
 * meanwhile waits its turn (a FIFO gate) instead of slipping into the open transaction. BEGIN
 * IMMEDIATE takes the file's write lock at the start, which is what makes a cap check and its
 * insert hold across processes.
 */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  readonly notifiesAcrossProcesses = false;
  readonly description: string;
  private readonly statements = new Map<string, Statement>();
  private readonly local = new EventEmitter();
  /** Settles when the transaction holding the connection ends; undefined when none does. */
  private held?: Promise<void>;
  private readonly direct: Transaction;
  /** The connection's own busy timeout (database.ts), which transactions wait up to. */
  private busyTimeoutMs?: number;

  constructor(readonly db: Db) {
    this.description = `sqlite:${db.name}`;
    this.local.setMaxListeners(0);
    this.direct = {
      dialect: 'sqlite',
      all: async <T>(sql: string, params: readonly SqlValue[] = []) => this.statement(sql).all(...params) as T[],
      get: async <T>(sql: string, params: readonly SqlValue[] = []) => this.statement(sql).get(...params) as T | undefined,
      run: async (sql: string, params: readonly SqlValue[] = []) => ({ changes: this.statement(sql).run(...params).changes }),
      lock: async () => undefined,
    };
  }

  async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    refuseInsideTransaction(this, 'all', sql);
    while (this.held) await this.held;
    return this.direct.all<T>(sql, params);
  }

  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    refuseInsideTransaction(this, 'get', sql);
    while (this.held) await this.held;
    return this.direct.get<T>(sql, params);
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }> {
    refuseInsideTransaction(this, 'run', sql);
    while (this.held) await this.held;
    return this.direct.run(sql, params);
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    refuseInsideTransaction(this, 'transaction');
    while (this.held) await this.held;
    let release!: () => void;
    this.held = new Promise((resolve) => (release = resolve));
    try {
      await this.begin();
      try {
        const result = await insideTransaction(this, () => work(this.direct));
        this.statement('COMMIT').run();
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.statement('ROLLBACK').run();
        throw error;
      }
    } finally {
      this.held = undefined;
      release();
    }
  }

  /**
   * BEGIN IMMEDIATE without blocking the event loop: while another connection holds the write lock
   * this waits asynchronously and retries, instead of in SQLite's busy handler — which would freeze
   * the process, and deadlock it when the holder is another connection of this same process whose
   * transaction waits for the event loop.
   */
  private async begin(): Promise<void> {
    const timeoutMs = (this.busyTimeoutMs ??= this.db.pragma('busy_timeout', { simple: true }) as number);
    const deadline = Date.now() + timeoutMs;
    for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
      this.statement('PRAGMA busy_timeout = 0').run();
      try {
        this.statement('BEGIN IMMEDIATE').run();
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() + pause > deadline) throw error;
      } finally {
        this.statement(`PRAGMA busy_timeout = ${timeoutMs}`).run();
      }
      await sleep(pause);
    }
  }

  async notify(channel: string, payload: string): Promise<void> {
    this.local.emit(channel, payload);
  }

  async listen(channel: string, handler: (payload: string) => void): Promise<() => void> {
    this.local.on(channel, handler);
    return () => this.local.off(channel, handler);
  }

  changeSignal(): ChangeSignal {
    return changeWatch(this.db);
  }

  async changed(): Promise<void> {}

  async changeCounter(channel: string): Promise<() => number> {
    const dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
    let local = 0;
    this.local.on(channel, () => local++);
    // Another connection's commit moves data_version; this connection's own writes are counted here.
    return () => dataVersion.get()! * 1_000_000 + local;
  }

  async schemaVersion(): Promise<number> {
    const row = this.statement('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null } | undefined;
    return row?.version ?? 0;
  }

  async ping(): Promise<void> {
    this.statement('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= STATEMENT_CACHE_MAX) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
