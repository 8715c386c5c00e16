/**
 * Which store's transaction the running code is inside (an AsyncLocalStorage marker), so a call on
 * the store itself instead of the transaction's executor fails at once with a clear error. Without
 * it that call waits for ever on SQLite (the transaction holds the connection) and silently runs
 * outside the transaction on Postgres (another connection of the pool).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Scope {
  store: object;
  /** False once the transaction's work has ended: work it started and left running is outside it. */
  open: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();

/** Runs a transaction's `work` marked as inside `store`'s transaction. */
export async function insideTransaction<T>(store: object, work: () => Promise<T>): Promise<T> {
  const scope: Scope = { store, open: true };
  try {
    return await scopes.run(scope, work);
  } finally {
    scope.open = false;
  }
}

/** Throws when called from inside a transaction of `store` (`call`: what was called, for the message). */
export function refuseInsideTransaction(store: object, call: string, sql?: string): void {
  const scope = scopes.getStore();
  if (!scope?.open || scope.store !== store) return;
  const statement = sql === undefined ? '' : ` (${sql.replace(/\s+/g, ' ').trim().slice(0, 80)})`;
  throw new Error(
    `store.${call}${statement} was called inside store.transaction on the same store: inside a transaction, use its executor (the tx argument), or call the store after the transaction ends.`,
  );
}
