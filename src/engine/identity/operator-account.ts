/**
 * The fleet's operator account: the one Ultimate user every machine's default key belongs to on a
 * PostgreSQL store. It is made when the schema is made (`engine migrate`, or serve migrating an
 * empty database), under the migration lock, so no server or command ever mints one of its own.
 */
import type { Executor } from '../store/store.js';

export const OPERATOR_NAME = 'operator';

/** Makes the operator account unless the store has one; whether it made it. */
export async function ensureOperatorAccount(on: Executor, now = Date.now()): Promise<boolean> {
  const { changes } = await on.run(
    `INSERT INTO users (name, plan, scopes, is_default, created_at)
     SELECT CAST(? AS TEXT), 'ultimate', 'generations', 1, CAST(? AS BIGINT)
     WHERE NOT EXISTS (SELECT 1 FROM users WHERE is_default = 1)`,
    [OPERATOR_NAME, now],
  );
  return changes > 0;
}

/** The operator account's id, if the store has one (the oldest, on a store an older tubekit gave several). */
export async function operatorAccountId(on: Executor): Promise<number | undefined> {
  return (await on.get<{ id: number }>('SELECT id FROM users WHERE is_default = 1 ORDER BY id LIMIT 1'))?.id;
}
