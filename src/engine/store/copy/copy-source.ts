/**
 * The source of `engine copy-store`: an embedded engine's SQLite file, named by its data dir or the
 * file itself. It is checked to be a tubekit database before anything is read, and opened read-only
 * when its schema is this version's (a copy never changes its source); an older one is brought up to
 * date first, as every tubekit command opening it would.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { badRequest } from '../../../core/errors.js';
import { databaseFile } from '../../paths.js';
import { nativeBinding, openDatabase, schemaStamp, type Db } from '../database.js';
import { migrations } from '../migrations.js';

export interface CopySource {
  db: Db;
  /** `sqlite:<file>`, for messages. */
  description: string;
  /** The data dir holding the file: where its engine kept its files (voices' samples) unless it ran with --files-dir. */
  dataDir: string;
  close(): void;
}

/** Opens `text` (`sqlite:<path-or-data-dir>`, or the bare path) as a copy's source; a 400 when it is not a tubekit data dir. */
export function openCopySource(text: string): CopySource {
  const named = text.trim().replace(/^sqlite:(\/\/(?=\/))?/, '');
  if (/^postgres(ql)?:\/\//.test(named)) {
    throw badRequest('copy-store copies from an embedded engine (a data dir\'s SQLite file), not from PostgreSQL.', 'Give --from sqlite:<data dir or file>; to copy one PostgreSQL database to another, use pg_dump.');
  }
  if (!named) throw badRequest('--from names no data dir: give sqlite:<data dir or file>.');
  const given = path.resolve(named);
  if (!fs.existsSync(given)) throw badRequest(`There is no data dir or file at ${given}.`, 'Give --from sqlite:<data dir>, the directory holding tubekit.db (`tubekit engine status` shows it).');
  const file = fs.statSync(given).isDirectory() ? databaseFile(given) : given;
  if (!fs.existsSync(file)) throw badRequest(`${given} is not a tubekit data dir: it holds no tubekit.db.`, 'Give the data dir of the engine to copy (`tubekit engine status` shows it), or its tubekit.db.');
  const description = `sqlite:${file}`;

  let db: Db;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, nativeBinding: nativeBinding() });
  } catch (error) {
    throw badRequest(`Cannot read ${file}: ${(error as Error).message}.`);
  }
  try {
    db.pragma('busy_timeout = 10000');
    const tables = new Set(db.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((row) => row.name));
    if (!tables.has('schema_migrations') || !tables.has('users')) {
      throw badRequest(`${file} is not a tubekit database: it has no tubekit tables.`, 'Give the data dir of the engine to copy (`tubekit engine status` shows it).');
    }
    if (db.pragma('user_version', { simple: true }) === schemaStamp(migrations)) return { db, description, dataDir: path.dirname(file), close: () => db.close() };
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_NOTADB') throw badRequest(`${file} is not a tubekit database: it is not an SQLite file.`);
    throw error;
  }
  // Written by an older tubekit: migrated as any command opening it would.
  db.close();
  const migrated = openDatabase(file);
  return { db: migrated, description, dataDir: path.dirname(file), close: () => migrated.close() };
}
