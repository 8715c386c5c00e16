/**
 * Dashboard sessions: a random id in a cookie, the key it signed in with kept only in this
 * process's memory (never sent back), a CSRF token per session, and two expiries — idle and absolute.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export interface Session {
  /** The key, re-checked on every request so a revoked key ends the session. */
  readonly key: string;
  /** Every form of the session carries it; a post without it changes nothing. */
  readonly csrf: string;
  readonly createdAt: number;
  seenAt: number;
}

export interface SessionLimits {
  /** A session unused this long is over (default 30 minutes). */
  idleMs: number;
  /** A session this old is over however busy (default 12 hours). */
  maxAgeMs: number;
  /** Sessions held at once: the oldest goes first beyond it. */
  maxSessions: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { idleMs: 30 * 60_000, maxAgeMs: 12 * 3_600_000, maxSessions: 10_000 };

export const newToken = (): string => randomBytes(32).toString('base64url');
/** Stored by digest, so the map's keys are not the cookies themselves. */
const digest = (id: string): string => createHash('sha256').update(id).digest('base64url');

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  readonly limits: SessionLimits;

  constructor(limits: Partial<SessionLimits> = {}, private readonly now: () => number = Date.now) {
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...limits };
  }

  /** A new session for a key already authenticated; returns the cookie value. */
  create(key: string): { id: string; session: Session } {
    const at = this.now();
    this.sweep(at);
    while (this.sessions.size >= this.limits.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    const id = newToken();
    const session: Session = { key, csrf: newToken(), createdAt: at, seenAt: at };
    this.sessions.set(digest(id), session);
    return { id, session };
  }

  /** The live session of a cookie value, or null (unknown, idle too long, or too old). */
  get(id: string | undefined): Session | null {
    if (!id) return null;
    const name = digest(id);
    const session = this.sessions.get(name);
    if (!session) return null;
    const at = this.now();
    if (this.expired(session, at)) {
      this.sessions.delete(name);
      return null;
    }
    session.seenAt = at;
    return session;
  }

  end(id: string | undefined): void {
    if (id) this.sessions.delete(digest(id));
  }

  private expired(session: Session, at: number): boolean {
    return at - session.seenAt > this.limits.idleMs || at - session.createdAt > this.limits.maxAgeMs;
  }

  private sweep(at: number): void {
    for (const [name, session] of this.sessions) if (this.expired(session, at)) this.sessions.delete(name);
  }
}

/** Compares a posted token with the expected one in constant time. */
export function tokensMatch(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}
