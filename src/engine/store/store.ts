/**
 * The engine's store: one small asynchronous interface with two implementations, chosen once when
 * the engine opens (open-store.ts) — SQLite in the data dir (the default) or PostgreSQL for a fleet.
 * Features never build SQL against it directly: each area keeps its SQL in a repository module,
 * written once where it is portable and per dialect (`store.dialect`) where it is not.
 *
 * SQL uses `?` placeholders in both dialects (the Postgres store numbers them). Integers come back
 * as numbers in both (Postgres BIGINT and COUNT(*) are parsed, not left as strings).
 */
import type { ChangeSignal } from './change-watch.js';

export type StoreDialect = 'sqlite' | 'postgres';
/** Arrays only on Postgres (`= ANY(?::text[])`): SQLite takes JSON text and `json_each` instead. */
export type SqlValue = string | number | bigint | boolean | null | Buffer | readonly (string | number)[];

export interface Executor {
  readonly dialect: StoreDialect;
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** A write; `changes` is the number of rows it touched. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
}

/** An open transaction: an executor that can also serialise on a name until it ends. */
export interface Transaction extends Executor {
  /**
   * Waits until no other transaction, in any process or machine, holds `name`, then holds it until
   * this one ends: a cap check takes its cap's name before counting. SQLite has nothing to do
   * (BEGIN IMMEDIATE already holds the database's one write lock); Postgres takes an advisory
   * transaction lock.
   */
  lock(name: string): Promise<void>;
}

export interface TransactionOptions {
  /**
   * Names serialised across every process and machine for the transaction's length: a cap check
   * and its insert take the cap's name, so two machines never both see room for one more. SQLite
   * needs none (its transactions take the database's one write lock); Postgres takes an advisory
   * transaction lock per name.
   */
  locks?: readonly string[];
}

export interface Store extends Executor {
  /** Where the data lives, without credentials (for health and messages). */
  readonly description: string;
  /**
   * Runs `work` in one write transaction: committed when it resolves, rolled back when it throws.
   * Transactions never interleave on one connection: SQLite's are run one after another.
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Tells every process listening on `channel` (LISTEN/NOTIFY on Postgres; this process only on SQLite). */
  notify(channel: string, payload: string): Promise<void>;
  /** Calls `handler` for every notification on `channel`, from any process; resolves to an unsubscribe. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => void>;
  /** Whether notifications reach other processes (Postgres) or only this one (SQLite: poll as well). */
  readonly notifiesAcrossProcesses: boolean;
  /**
   * A number that moves whenever a write announced on `channel` (by `notify`) may have happened in
   * any process, so a cache of that data can tell when to forget. SQLite reads the file's
   * `data_version` (any other connection's commit moves it); Postgres counts notifications.
   */
  changeCounter(channel: string): Promise<() => number | Promise<number>>;
  /**
   * What remembered reads (change-watch.ts) watch. With a topic: moves after every write whose
   * writer called `changed(topic)`, in any process. Without: moves after any write at all, which
   * only SQLite can see cheaply (Postgres's always moves: nothing is remembered).
   */
  changeSignal(topic?: string): ChangeSignal;
  /**
   * Says that a write of `topic` has committed (call it after the transaction): this process's
   * remembered reads of it are forgotten at once, other processes' when the notification arrives
   * (Postgres; SQLite's watch sees every write by itself).
   */
  changed(topic: string): Promise<void>;
  /** The highest migration version applied. */
  schemaVersion(): Promise<number>;
  /** A cheap round trip: throws when the database cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
