/**
 * A look at a data dir's database without changing it (`tubekit doctor`): whether it exists, what
 * SQLite's `PRAGMA quick_check` says, and which platform the data dir reads. Opened read-only: no
 * migration runs, nothing is created.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { nativeBinding } from './database.js';

export interface DatabaseInspection {
  exists: boolean;
  /** `["ok"]` when intact; else the problems quick_check lists (or why it could not run). */
  quickCheck: string[];
  platform: 'sample' | 'live';
}

export function inspectDatabase(file: string): DatabaseInspection {
  if (!fs.existsSync(file)) return { exists: false, quickCheck: ['ok'], platform: 'sample' };
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, nativeBinding: nativeBinding() });
    db.pragma('busy_timeout = 5000');
    const quickCheck = (db.pragma('quick_check') as Array<{ quick_check: string }>).map((row) => row.quick_check);
    const row = db.prepare<[], { value: string }>("SELECT value FROM settings WHERE key = 'platform'").get();
    return { exists: true, quickCheck, platform: row && JSON.parse(row.value) === 'live' ? 'live' : 'sample' };
  } catch (error) {
    return { exists: true, quickCheck: [(error as Error).message], platform: 'sample' };
  } finally {
    db?.close();
  }
}
