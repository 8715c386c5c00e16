import fs from 'node:fs';
import { conflict, notFound, ServiceError, unauthorized } from '../../core/errors.js';
import type { Clock } from '../clock.js';
import { isoTime } from '../clock.js';
import type { Plan } from '../limits/plans.js';
import type { Executor, Store } from '../store/store.js';
import { hashApiKey, keyPrefix, newApiKey } from './keys.js';
import { operatorAccountId } from './operator-account.js';

export const SCOPES = ['generations'] as const;
export type Scope = (typeof SCOPES)[number];

/** Who is calling: the user behind a valid key. */
export interface Principal {
  userId: number;
  plan: Plan;
  scopes: Scope[];
}

export interface KeyListing {
  prefix: string;
  user_id: number;
  plan: Plan;
  scopes: Scope[];
  created_at: string;
  revoked: boolean;
  default: boolean;
}

interface UserRow {
  id: number;
  plan: Plan;
  scopes: string;
}

const parseScopes = (text: string): Scope[] => text.split(',').filter(Boolean) as Scope[];

/** Keys remembered at most: a server sees a handful; past this the memory is simply cleared. */
const PRINCIPAL_CACHE_MAX = 1_000;
/** Announced after every write of users or keys, so every process forgets the keys it remembers. */
export const IDENTITY_CHANNEL = 'tubekit_identity';
/** Serialises creating the default user across processes (and machines). */
const DEFAULT_USER_LOCK = 'identity:default-user';

const BY_KEY_HASH = `SELECT users.id, users.plan, users.scopes FROM api_keys JOIN users ON users.id = api_keys.user_id
  WHERE api_keys.key_hash = ? AND api_keys.revoked_at IS NULL`;

/** Users, their plans and scopes, and hashed API keys. */
export class Identity {
  /**
   * Who each recently seen key is, so a busy server does not hash and look up the same key on
   * every request. It is valid while the store's change counter for identity has not moved
   * (another process revoking a key moves it), so a revoked key stops working on its next request.
   */
  private readonly principals = new Map<string, Principal | null>();
  private principalsVersion = -1;
  private versionReadThisTurn = false;
  private changes?: Promise<() => number | Promise<number>>;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  async authenticate(key: string | undefined): Promise<Principal> {
    if (!key) throw unauthorized('Authentication failed: no API key was sent.');
    await this.noticeOtherWriters();
    let principal = this.principals.get(key);
    if (principal === undefined) {
      const row = await this.store.get<UserRow>(BY_KEY_HASH, [hashApiKey(key)]);
      // Unknown keys are remembered too (as null): a client retrying a bad key costs a lookup once.
      principal = row ? Object.freeze({ userId: row.id, plan: row.plan, scopes: Object.freeze(parseScopes(row.scopes)) as Scope[] }) : null;
      if (this.principals.size >= PRINCIPAL_CACHE_MAX) this.principals.clear();
      this.principals.set(key, principal);
    }
    if (!principal) throw unauthorized();
    return principal;
  }

  /**
   * Reads the change counter once per turn of the event loop: the requests a server handles in one
   * turn arrived together, and a commit by another process is seen from the next turn on.
   */
  private async noticeOtherWriters(): Promise<void> {
    if (this.versionReadThisTurn) return;
    this.versionReadThisTurn = true;
    setImmediate(() => {
      this.versionReadThisTurn = false;
    }).unref();
    this.changes ??= this.store.changeCounter(IDENTITY_CHANNEL);
    const version = await (await this.changes)();
    if (version !== this.principalsVersion) this.forgetPrincipals(version);
  }

  /** Drops every remembered key (after a write of users or keys, or one by another process). */
  private forgetPrincipals(version = this.principalsVersion): void {
    this.principals.clear();
    this.principalsVersion = version;
  }

  /** After a write: forget here, and tell every other process to. */
  private async changed(): Promise<void> {
    this.forgetPrincipals();
    await this.store.notify(IDENTITY_CHANNEL, '');
  }

  /** A new user with its own key (for trying plan rules locally). */
  async createUserWithKey(plan: Plan, scopes: Scope[], options: { isDefault?: boolean; name?: string } = {}) {
    const key = newApiKey();
    const userId = await this.store.transaction((tx) => this.insertUserWithKey(tx, key, plan, scopes, options));
    await this.changed();
    return { key, user_id: userId, plan, scopes };
  }

  private async insertUserWithKey(tx: Executor, key: string, plan: Plan, scopes: Scope[], options: { isDefault?: boolean; name?: string }): Promise<number> {
    const now = this.clock.now();
    const user = await tx.get<{ id: number }>(
      'INSERT INTO users (name, plan, scopes, is_default, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
      [options.name ?? `${plan} user`, plan, scopes.join(','), options.isDefault ? 1 : 0, now],
    );
    await tx.run('INSERT INTO api_keys (user_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?)', [user!.id, hashApiKey(key), keyPrefix(key), now]);
    return user!.id;
  }

  /** Another key for an existing user: caps counted per user then hold across both keys. */
  async createKeyForUser(userId: number): Promise<string> {
    const key = newApiKey();
    await this.store.run('INSERT INTO api_keys (user_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?)', [userId, hashApiKey(key), keyPrefix(key), this.clock.now()]);
    await this.changed();
    return key;
  }

  /**
   * The default local user (Ultimate, every scope). Its key lives in a 0600 file in the data dir
   * so the CLI can use it in local mode; on SQLite the user is created on first use. On a fleet's
   * store it is the operator account `engine migrate` made, and each machine gets a key of its own.
   */
  async ensureDefaultKey(keyFile: string): Promise<string> {
    const existing = await this.readValidKey(this.store, keyFile);
    if (existing) return existing;
    // Several processes may start on a new data dir at once: the lock makes one of them create
    // the user and the file; the others find the file once they get the lock.
    const created = await this.store.transaction(async (tx) => {
      await tx.lock(DEFAULT_USER_LOCK);
      const written = await this.readValidKey(tx, keyFile);
      if (written) return { key: written, fresh: false };
      const key = newApiKey();
      // On a fleet every machine's default key belongs to the one operator account the migration
      // made: its folders, jobs and caps are the same whichever machine a command runs on.
      if (tx.dialect === 'postgres') {
        const operator = await operatorAccountId(tx);
        if (operator === undefined) throw noOperatorAccount(this.store.description);
        await tx.run('INSERT INTO api_keys (user_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?)', [operator, hashApiKey(key), keyPrefix(key), this.clock.now()]);
      } else await this.insertUserWithKey(tx, key, 'ultimate', ['generations'], { isDefault: true, name: 'local user' });
      const temporary = `${keyFile}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, `${key}\n`, { mode: 0o600 });
      fs.renameSync(temporary, keyFile);
      return { key, fresh: true };
    });
    if (created.fresh) await this.changed();
    return created.key;
  }

  private async readValidKey(on: Executor, keyFile: string): Promise<string | undefined> {
    if (!fs.existsSync(keyFile)) return undefined;
    const key = fs.readFileSync(keyFile, 'utf8').trim();
    return (await on.get(BY_KEY_HASH, [hashApiKey(key)])) ? key : undefined;
  }

  async listKeys(): Promise<KeyListing[]> {
    const rows = await this.store.all<{ prefix: string; user_id: number; plan: Plan; scopes: string; created_at: number; revoked_at: number | null; is_default: number }>(
      `SELECT api_keys.prefix, api_keys.user_id, users.plan, users.scopes, api_keys.created_at,
              api_keys.revoked_at, users.is_default
       FROM api_keys JOIN users ON users.id = api_keys.user_id ORDER BY api_keys.id`,
    );
    return rows.map((row) => ({
      prefix: row.prefix,
      user_id: row.user_id,
      plan: row.plan,
      scopes: parseScopes(row.scopes),
      created_at: isoTime(row.created_at),
      revoked: row.revoked_at !== null,
      default: row.is_default === 1,
    }));
  }

  /**
   * Revokes by the whole key, or by any start of the prefix `keys list` shows (`tk_zG`, `tk_zGWSz7`)
   * that names exactly one active key. Longer text must be the whole key: only its hash is kept.
   */
  async revokeKey(keyOrPrefix: string): Promise<{ prefix: string }> {
    const byHash = await this.store.get<{ id: number; prefix: string }>('SELECT id, prefix FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL', [hashApiKey(keyOrPrefix)]);
    const shown = keyPrefix(keyOrPrefix);
    const matches = byHash
      ? [byHash]
      : keyOrPrefix.length > shown.length
        ? []
        : await this.store.all<{ id: number; prefix: string }>('SELECT id, prefix FROM api_keys WHERE substr(prefix, 1, length(CAST(? AS TEXT))) = ? AND revoked_at IS NULL ORDER BY id', [keyOrPrefix, keyOrPrefix]);
    if (matches.length === 0) {
      throw notFound(`No active key matches "${shown}${keyOrPrefix.length > shown.length ? '…' : ''}": give the whole key, or the prefix \`tubekit engine keys list\` shows (or the start of one).`);
    }
    if (matches.length > 1) {
      throw conflict(`"${keyOrPrefix}" is the start of ${matches.length} active keys (${matches.map((match) => match.prefix).join(', ')}); give more of it, or the whole key.`);
    }
    await this.store.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [this.clock.now(), matches[0]!.id]);
    await this.changed();
    return { prefix: matches[0]!.prefix };
  }

  async userCount(): Promise<number> {
    return (await this.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM users'))!.n;
  }
}

/** A fleet store without its operator account (copied from a data dir that had no default user). */
function noOperatorAccount(description: string): ServiceError {
  return new ServiceError({
    status: 503,
    code: 'store_not_migrated',
    message: `The database ${description} has no operator account for this machine's default key.`,
    hint: `Run \`tubekit engine migrate --store ${description}\`: it makes the fleet's one operator account.`,
  });
}
