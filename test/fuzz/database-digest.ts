/**
 * A fingerprint of what a database holds, to prove a refused request wrote nothing.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../src/engine/store/database.js';

/**
 * Tables a refused request may still change, and why:
 * - `rate_events`: a rate window counts attempts and prunes expired events on every check, and a
 *   429 is itself a refused request.
 */
export const BOOKKEEPING_TABLES = new Set(['rate_events']);

/** The generated sample world: large and read-only to requests, so it is compared once per suite. */
const isWorldTable = (name: string) => name.startsWith('world_');

/** Real tables only: a virtual (full-text) table's rows live in its shadow tables, digested too. */
function tableNames(db: Db, which: (name: string) => boolean): string[] {
  return db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
    .all()
    .map((row) => row.name)
    .filter(which);
}

function digestTables(db: Db, names: string[]): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const name of names) {
    const rows = db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][];
    const lines = rows.map((row) => JSON.stringify(row, (_key, value) => (typeof value === 'bigint' ? String(value) : value))).sort();
    const hash = createHash('sha1');
    for (const line of lines) hash.update(line).update('\n');
    digests[name] = `${rows.length}:${hash.digest('hex')}`;
  }
  return digests;
}

/** One digest per user-data table (every table but the world's and the bookkeeping ones). */
export function userDataDigest(db: Db): Record<string, string> {
  return digestTables(db, tableNames(db, (name) => !isWorldTable(name) && !BOOKKEEPING_TABLES.has(name)));
}

/** One digest per table of the sample world. */
export function worldDigest(db: Db): Record<string, string> {
  return digestTables(db, tableNames(db, isWorldTable));
}
