import type { Db } from './database.js';

/**
 * A feature's prepared statements, built once per database connection and reused by every
 * request: `const statements = preparedFor((db) => ({ byId: db.prepare(…) }))`, then
 * `statements(engine.db).byId.get(…)`.
 */
export function preparedFor<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let statements = cache.get(db);
    if (!statements) {
      statements = build(db);
      cache.set(db, statements);
    }
    return statements;
  };
}
