import { randomUUID } from 'node:crypto';
import type { Client, Pool, PoolClient, QueryResult } from 'pg';
import { ServiceError } from '../../core/errors.js';
import { ALWAYS_CHANGED, type ChangeSignal } from './change-watch.js';
import { numberedPlaceholders } from './sql-placeholders.js';
import type { Executor, SqlValue, Store, Transaction, TransactionOptions } from './store.js';
import { insideTransaction, refuseInsideTransaction } from './transaction-scope.js';

type PgModule = Pick<typeof import('pg'), 'Pool' | 'Client' | 'types'>;

/** SQLSTATEs a transaction is retried on: serialization failure, deadlock. */
const RETRIED = new Set(['40001', '40P01']);
/**
 * "cached plan must not change result type": a statement this connection prepared reads a table a
 * migration has changed since. The connection is dropped (its statements go with it) and the
 * statement runs once more on another.
 */
const STALE_PLAN = '0A000';
const isStalePlan = (error: unknown) => (error as { code?: unknown })?.code === STALE_PLAN;
const MAX_TRANSACTION_TRIES = 8;
/** SQLSTATE classes and driver codes meaning the database is not there (rather than the query wrong). */
const UNREACHABLE_CLASSES = ['08', '57P', '53'];
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'EPIPE', 'ENOENT', 'EAI_AGAIN']);
const LISTEN_RETRY_MS = 500;
/**
 * Getting a connection timed out (the query never ran). Its timer also fires when the event loop
 * was busy with long synchronous work (a sample world generated, an alert cycle) while the
 * connection was being made, which says nothing of the database: tried once more before 503.
 */
const CONNECT_TIMED_OUT = /timeout exceeded when trying to connect|Connection terminated due to connection timeout/;
const connectTimedOut = (error: unknown) => CONNECT_TIMED_OUT.test((error as Error | undefined)?.message ?? '');

/** Whether an error means "the database cannot be reached" (503), not a fault in our SQL. */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ServiceError) return error.code === 'store_unavailable';
  const code = String((error as { code?: unknown })?.code ?? '');
  if (UNREACHABLE_CODES.has(code) || UNREACHABLE_CLASSES.some((prefix) => code.startsWith(prefix))) return true;
  const message = (error as Error | undefined)?.message ?? '';
  return /Connection terminated|connection timeout|Client has encountered a connection error|the database system is (starting up|shutting down)|timeout exceeded when trying to connect/i.test(message);
}

export function storeUnavailable(description: string, cause: unknown): ServiceError {
  return new ServiceError({
    status: 503,
    code: 'store_unavailable',
    message: `Service unavailable: the database (${description}) cannot be reached (${(cause as Error)?.message ?? cause}).`,
    hint: 'Try again in a moment; the service resumes by itself when the database is back.',
    retryAfterSeconds: 5,
    cause,
  });
}

/**
 * The store on PostgreSQL, shared by every process of a fleet. A pool of connections for queries
 * and transactions, and one more connection that holds LISTENs for cross-process wake-ups.
 */
export class PostgresStore implements Store {
  readonly dialect = 'postgres' as const;
  readonly notifiesAcrossProcesses = true;
  private readonly pool: Pool;
  private listener?: Promise<Client>;
  /** Whether the LISTEN connection is up now (notifications are being heard). */
  private hearing = false;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;
  private readonly signals = new Map<string, NotifiedChanges>();
  /** Tells this store's change notifications from others' (an empty payload: the connection came back). */
  readonly signature = randomUUID();

  constructor(
    private readonly pg: PgModule,
    private readonly url: string,
    readonly description: string,
    poolSize = 10,
    connectTimeoutMs = 5_000,
  ) {
    // The first connections stay open for good (`min`): the pool then sets no idle timer each time
    // one of them is handed back, which a busy worker or server would do for every query.
    this.pool = new pg.Pool({ connectionString: url, max: poolSize, min: 2, types: integerTypes(pg), connectionTimeoutMillis: connectTimeoutMs, idleTimeoutMillis: 30_000 });
    // A connection that dies while idle (the database restarted) is dropped by the pool; without a
    // listener the error would end the process.
    this.pool.on('error', () => undefined);
  }

  async all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    refuseInsideTransaction(this, 'all', sql);
    return (await this.outside(sql, params)).rows as T[];
  }

  async get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    refuseInsideTransaction(this, 'get', sql);
    return (await this.outside(sql, params)).rows[0] as T | undefined;
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }> {
    refuseInsideTransaction(this, 'run', sql);
    return { changes: (await this.outside(sql, params)).rowCount ?? 0 };
  }

  /** One statement on a connection of the pool, outside any transaction; a stale plan is retried once on a fresh connection. */
  private async outside(sql: string, params?: readonly SqlValue[]): Promise<QueryResult> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.connect();
      let stale = false;
      try {
        return await this.query(client, sql, params);
      } catch (error) {
        stale = isStalePlan(error);
        if (stale && attempt === 1) continue;
        throw error;
      } finally {
        client.release(stale);
      }
    }
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    refuseInsideTransaction(this, 'transaction');
    for (let attempt = 1; ; attempt++) {
      const client = await this.connect();
      let broken = false;
      try {
        await this.query(client, 'BEGIN');
        // Sorted so two transactions taking the same names never wait on each other crosswise.
        const tx = this.executor(client);
        for (const name of [...(options.locks ?? [])].sort()) await tx.lock(name);
        const result = await insideTransaction(this, () => work(tx));
        await this.query(client, 'COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (broken = true));
        const code = (error as { code?: string }).code ?? '';
        if (isStalePlan(error)) broken = true;
        if ((RETRIED.has(code) && attempt < MAX_TRANSACTION_TRIES) || (isStalePlan(error) && attempt === 1)) continue;
        throw error;
      } finally {
        client.release(broken);
      }
    }
  }

  async notify(channel: string, payload: string): Promise<void> {
    // Not a read or write of the data: allowed inside a transaction (sent at once, not at its commit).
    await this.outside('SELECT pg_notify(?, ?)', [channel, payload]);
  }

  async listen(channel: string, handler: (payload: string) => void): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      const client = await this.listenerClient();
      await client.query(`LISTEN ${quoteName(channel)}`);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  changeSignal(topic?: string): ChangeSignal {
    if (topic === undefined) return ALWAYS_CHANGED;
    let signal = this.signals.get(topic);
    if (!signal) {
      signal = new NotifiedChanges(this, changesChannel(topic));
      this.signals.set(topic, signal);
    }
    return signal;
  }

  /** Whether notifications from other processes reach this one now (the LISTEN connection is up). */
  get hearsNotifications(): boolean {
    return this.hearing;
  }

  async changed(topic: string): Promise<void> {
    this.signals.get(topic)?.bump();
    // Committed already: a fleet that misses this hears of it no later than its listen connection's return.
    // Signed, so this store does not take its own notification for another's write.
    await this.notify(changesChannel(topic), this.signature).catch(() => undefined);
  }

  async changeCounter(channel: string): Promise<() => number> {
    let count = 0;
    await this.listen(channel, () => count++);
    return () => count;
  }

  async schemaVersion(): Promise<number> {
    const row = await this.get<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
    return row?.version ?? 0;
  }

  async ping(): Promise<void> {
    await this.outside('SELECT 1');
  }

  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await listener.then((client) => client.end()).catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }

  /** A connection of the pool held for `work` (migrations hold their advisory lock on it). */
  async withConnection<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    const client = await this.connect();
    try {
      return await work(this.executor(client));
    } finally {
      client.release();
    }
  }

  private executor(client: PoolClient): Transaction {
    return {
      lock: async (name: string) => {
        await this.query(client, 'SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [name]);
      },
      dialect: 'postgres',
      all: async <T>(sql: string, params?: readonly SqlValue[]) => (await this.query(client, sql, params)).rows as T[],
      get: async <T>(sql: string, params?: readonly SqlValue[]) => (await this.query(client, sql, params)).rows[0] as T | undefined,
      run: async (sql: string, params?: readonly SqlValue[]) => ({ changes: (await this.query(client, sql, params)).rowCount ?? 0 }),
    };
  }

  private async connect(): Promise<PoolClient> {
    try {
      return await this.pool.connect().catch((error: unknown) => (connectTimedOut(error) ? this.pool.connect() : Promise.reject(error)));
    } catch (error) {
      throw storeUnavailable(this.description, error);
    }
  }

  private async query(on: PoolClient, sql: string, params: readonly SqlValue[] = []): Promise<QueryResult> {
    try {
      // Named: each connection parses and plans a text once, then only binds and executes it.
      return await on.query({ name: statementName(sql), text: numberedPlaceholders(sql), values: params as unknown[] });
    } catch (error) {
      throw isUnreachable(error) ? storeUnavailable(this.description, error) : error;
    }
  }

  /** The LISTEN connection, opened on first use and reopened (with every LISTEN) when it drops. */
  private listenerClient(reconnecting = false): Promise<Client> {
    if (this.listener) return this.listener;
    const opening = (async () => {
      const client = new this.pg.Client({ connectionString: this.url, types: integerTypes(this.pg) });
      client.on('notification', (message) => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      client.on('error', () => this.dropListener(opening));
      client.on('end', () => this.dropListener(opening));
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteName(channel)}`);
      // Notifications sent while the connection was down are lost: tell every listener that
      // anything may have changed (an empty payload), so caches reload.
      if (reconnecting) for (const handlers of this.handlers.values()) for (const handler of handlers) handler('');
      return client;
    })();
    this.listener = opening;
    opening.then(
      () => {
        if (this.listener === opening) this.hearing = true;
      },
      () => this.dropListener(opening),
    );
    return opening;
  }

  /** Forgets a dead LISTEN connection and, while anyone listens, opens another after a pause. */
  private dropListener(which: Promise<Client>): void {
    if (this.listener !== which) return;
    this.listener = undefined;
    this.hearing = false;
    which.then((client) => client.end()).catch(() => undefined);
    if (this.closed || this.handlers.size === 0) return;
    setTimeout(() => {
      if (!this.closed && !this.listener) this.listenerClient(true).catch(() => undefined);
    }, LISTEN_RETRY_MS).unref();
  }
}

/** BIGINT (ids, epoch milliseconds, COUNT(*)) as a number: every value we store fits in 2^53. */
function integerTypes(pg: PgModule) {
  const bigint = (value: string) => Number(value);
  return {
    getTypeParser: ((oid: number, format?: string) => (oid === 20 ? bigint : pg.types.getTypeParser(oid, format as never))) as never,
  };
}

const statementNames = new Map<string, string>();

/** A `*` column list (`SELECT *`, `t.*`, `RETURNING *`): its shape changes when a migration adds a column. */
const STAR_COLUMNS = /\b(SELECT|RETURNING)\s+(DISTINCT\s+)?\*|\w\.\*/i;

/**
 * A prepared statement's name per SQL text. Statements that change the schema are not prepared,
 * nor those selecting `*`: a prepared statement must keep its result's shape across migrations.
 */
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined) {
    name = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql) && !sql.includes(';') && !STAR_COLUMNS.test(sql) ? `tk${statementNames.size}` : '';
    statementNames.set(sql, name);
  }
  return name || undefined;
}

function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const changesChannel = (topic: string) => `tubekit_changed_${topic}`;

/**
 * A topic's change signal on Postgres: counts this process's own writes (at once) and every
 * process's notifications. Until its LISTEN is in place it moves at every look, so nothing is
 * remembered that a write of another machine could make stale unheard.
 */
class NotifiedChanges implements ChangeSignal {
  private count = 0;
  private listening = false;
  private subscribing = false;

  constructor(
    private readonly store: PostgresStore,
    private readonly channel: string,
  ) {}

  bump(): void {
    this.count += 1;
  }

  generation(): number {
    if (this.listening && this.store.hearsNotifications) return this.count;
    this.subscribe();
    return ++this.count;
  }

  private subscribe(): void {
    if (this.subscribing) return;
    this.subscribing = true;
    this.store.listen(this.channel, (payload) => {
      if (payload !== this.store.signature) this.count += 1;
    }).then(
      () => {
        this.listening = true;
        this.count += 1;
      },
      () => {
        this.subscribing = false;
      },
    );
  }
}
