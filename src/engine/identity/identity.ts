import fs from 'node:fs';
import { conflict, notFound, unauthorized } from '../../core/errors.js';
import type { Clock } from '../clock.js';
import { isoTime } from '../clock.js';
import type { Plan } from '../limits/plans.js';
import type { Db } from '../store/database.js';
import { hashApiKey, keyPrefix, newApiKey } from './keys.js';

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

/** Users, their plans and scopes, and hashed API keys. */
export class Identity {
  private readonly byKeyHash;
  private readonly dataVersion;
  /**
   * Who each recently seen key is, so a busy server does not hash and look up the same key on
   * every request. It is valid while this database has not changed under us: SQLite's
   * `data_version` moves whenever another connection (a CLI revoking a key, say) commits, and
   * this class clears the cache itself after its own writes, so a revoked key stops working on
   * its next request.
   */
  private readonly principals = new Map<string, Principal | null>();
  private principalsVersion = -1;
  private versionReadThisTurn = false;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.byKeyHash = db.prepare<[string], UserRow>(
      `SELECT users.id, users.plan, users.scopes FROM api_keys JOIN users ON users.id = api_keys.user_id
       WHERE api_keys.key_hash = ? AND api_keys.revoked_at IS NULL`,
    );
  }

  authenticate(key: string | undefined): Principal {
    if (!key) throw unauthorized('Authentication failed: no API key was sent.');
    this.noticeOtherWriters();
    let principal = this.principals.get(key);
    if (principal === undefined) {
      const row = this.byKeyHash.get(hashApiKey(key));
      // Unknown keys are remembered too (as null): a client retrying a bad key costs a lookup once.
      principal = row ? Object.freeze({ userId: row.id, plan: row.plan, scopes: Object.freeze(parseScopes(row.scopes)) as Scope[] }) : null;
      if (this.principals.size >= PRINCIPAL_CACHE_MAX) this.principals.clear();
      this.principals.set(key, principal);
    }
    if (!principal) throw unauthorized();
    return principal;
  }

  /**
   * Reads `data_version` once per turn of the event loop: the requests a server handles in one
   * turn arrived together, and a commit by another process is seen from the next turn on.
   */
  private noticeOtherWriters(): void {
    if (this.versionReadThisTurn) return;
    this.versionReadThisTurn = true;
    setImmediate(() => {
      this.versionReadThisTurn = false;
    }).unref();
    const version = this.dataVersion.get()!;
    if (version !== this.principalsVersion) this.forgetPrincipals(version);
  }

  /** Drops every remembered key (after a write of users or keys, or one by another connection). */
  private forgetPrincipals(version = this.principalsVersion): void {
    this.principals.clear();
    this.principalsVersion = version;
  }

  /** A new user with its own key (for trying plan rules locally). */
  createUserWithKey(plan: Plan, scopes: Scope[], options: { isDefault?: boolean; name?: string } = {}) {
    const key = newApiKey();
    const create = this.db.transaction(() => {
      const now = this.clock.now();
      const user = this.db
        .prepare('INSERT INTO users (name, plan, scopes, is_default, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(options.name ?? `${plan} user`, plan, scopes.join(','), options.isDefault ? 1 : 0, now);
      const userId = Number(user.lastInsertRowid);
      this.db
        .prepare('INSERT INTO api_keys (user_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?)')
        .run(userId, hashApiKey(key), keyPrefix(key), now);
      return userId;
    });
    const userId = create.immediate();
    this.forgetPrincipals();
    return { key, user_id: userId, plan, scopes };
  }

  /** Another key for an existing user: caps counted per user then hold across both keys. */
  createKeyForUser(userId: number): string {
    const key = newApiKey();
    this.db
      .prepare('INSERT INTO api_keys (user_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?)')
      .run(userId, hashApiKey(key), keyPrefix(key), this.clock.now());
    this.forgetPrincipals();
    return key;
  }

  /**
   * The default local user (Ultimate, every scope). Its key lives in a 0600 file in the data dir
   * so the CLI can use it in local mode; created once, on first use.
   */
  ensureDefaultKey(keyFile: string): string {
    const existing = this.readValidKey(keyFile);
    if (existing) return existing;
    // Several processes may start on a new data dir at once: the write lock makes one of them
    // create the user and the file; the others find the file once they get the lock.
    const create = this.db.transaction(() => {
      const written = this.readValidKey(keyFile);
      if (written) return written;
      const created = this.createUserWithKey('ultimate', ['generations'], { isDefault: true, name: 'local user' });
      const temporary = `${keyFile}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, `${created.key}\n`, { mode: 0o600 });
      fs.renameSync(temporary, keyFile);
      return created.key;
    });
    return create.immediate();
  }

  private readValidKey(keyFile: string): string | undefined {
    if (!fs.existsSync(keyFile)) return undefined;
    const key = fs.readFileSync(keyFile, 'utf8').trim();
    return this.byKeyHash.get(hashApiKey(key)) ? key : undefined;
  }


  listKeys(): KeyListing[] {
    const rows = this.db
      .prepare<[], { prefix: string; user_id: number; plan: Plan; scopes: string; created_at: number; revoked_at: number | null; is_default: number }>(
        `SELECT api_keys.prefix, api_keys.user_id, users.plan, users.scopes, api_keys.created_at,
                api_keys.revoked_at, users.is_default
         FROM api_keys JOIN users ON users.id = api_keys.user_id ORDER BY api_keys.id`,
      )
      .all();
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
  revokeKey(keyOrPrefix: string): { prefix: string } {
    const byHash = this.db
      .prepare<[string], { id: number; prefix: string }>('SELECT id, prefix FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL')
      .get(hashApiKey(keyOrPrefix));
    const shown = keyPrefix(keyOrPrefix);
    const matches = byHash
      ? [byHash]
      : keyOrPrefix.length > shown.length
        ? []
        : this.db
            .prepare<[string, string], { id: number; prefix: string }>('SELECT id, prefix FROM api_keys WHERE substr(prefix, 1, length(?)) = ? AND revoked_at IS NULL ORDER BY id')
            .all(keyOrPrefix, keyOrPrefix);
    if (matches.length === 0) {
      throw notFound(`No active key matches "${shown}${keyOrPrefix.length > shown.length ? '…' : ''}": give the whole key, or the prefix \`tubekit engine keys list\` shows (or the start of one).`);
    }
    if (matches.length > 1) {
      throw conflict(`"${keyOrPrefix}" is the start of ${matches.length} active keys (${matches.map((match) => match.prefix).join(', ')}); give more of it, or the whole key.`);
    }
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(this.clock.now(), matches[0]!.id);
    this.forgetPrincipals();
    return { prefix: matches[0]!.prefix };
  }

  userCount(): number {
    return (this.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM users').get()!).n;
  }
}
