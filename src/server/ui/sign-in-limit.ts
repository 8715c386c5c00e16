/**
 * The sign-in form's guard against guessing keys: each client address may have a few keys refused
 * in a window; past that, every sign-in from it is answered 429 with Retry-After until the oldest
 * refusal leaves the window. Kept in this process's memory, like the sessions.
 */
export interface SignInLimits {
  /** Refused keys a client may send within the window (default 10). */
  attempts: number;
  /** The window (default 15 minutes). */
  windowMs: number;
  /** Clients remembered at once: the longest-remembered goes first beyond it. */
  maxClients: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { attempts: 10, windowMs: 15 * 60_000, maxClients: 10_000 };

export class SignInLimiter {
  private readonly refusals = new Map<string, number[]>();
  readonly limits: SignInLimits;

  constructor(limits: Partial<SignInLimits> = {}, private readonly now: () => number = Date.now) {
    this.limits = { ...DEFAULT_SIGN_IN_LIMITS, ...limits };
  }

  /** Seconds the client must wait before its next sign-in, or 0 when it may try now. */
  retryAfterSeconds(client: string): number {
    const recent = this.recent(client);
    if (recent.length < this.limits.attempts) return 0;
    return Math.max(1, Math.ceil((recent[recent.length - this.limits.attempts]! + this.limits.windowMs - this.now()) / 1000));
  }

  /** Counts a refused key against the client. */
  refused(client: string): void {
    const recent = this.recent(client);
    recent.push(this.now());
    this.refusals.delete(client);
    while (this.refusals.size >= this.limits.maxClients) this.refusals.delete(this.refusals.keys().next().value!);
    this.refusals.set(client, recent);
  }

  /** The client's refusals still in the window, oldest first. */
  private recent(client: string): number[] {
    const since = this.now() - this.limits.windowMs;
    const recent = (this.refusals.get(client) ?? []).filter((at) => at > since);
    if (recent.length === 0) this.refusals.delete(client);
    return recent;
  }
}
