import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, schemaStamp } from '../../../src/engine/store/database.js';
import { migrations } from '../../../src/engine/store/migrations.js';
import { tempDataDir } from '../../support/engines.js';

describe('engine database', () => {
  it('opens in WAL mode with a busy timeout and applies every migration once', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'x.db');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(5000);
    const versions = () => db.prepare<[], { version: number }>('SELECT version FROM schema_migrations ORDER BY version').all().map((row) => row.version);
    expect(versions()).toEqual(migrations.map((migration) => migration.version));
    db.close();
    const again = openDatabase(file);
    expect(again.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get()).toEqual({ n: migrations.length });
    again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives folders saved before the name rules their name keys, keeping names that now collide', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'names.db');
    const before = migrations.filter((migration) => migration.version < 9);
    const old = openDatabase(file, { migrations: before });
    old.prepare("INSERT INTO users (id, name, plan, created_at) VALUES (1, 'u', 'starter', 0)").run();
    for (const name of ['Café', 'CAFÉ', 'Straße']) old.prepare('INSERT INTO folders (user_id, name, created_at) VALUES (1, ?, 0)').run(name);
    old.close();
    const db = openDatabase(file);
    expect(db.prepare('SELECT name, name_key FROM folders ORDER BY id').all()).toEqual([
      { name: 'Café', name_key: 'café' },
      { name: 'CAFÉ', name_key: 'café' },
      { name: 'Straße', name_key: 'strasse' },
    ]);
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('applies a migration that landed after a later-numbered one', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'late.db');
    openDatabase(file, { migrations: [{ version: 1, name: 'a', sql: 'CREATE TABLE a (x)' }, { version: 3, name: 'c', sql: 'CREATE TABLE c (x)' }] }).close();
    const later = openDatabase(file, {
      migrations: [
        { version: 1, name: 'a', sql: 'CREATE TABLE a (x)' },
        { version: 2, name: 'b', sql: 'CREATE TABLE b (x)' },
        { version: 3, name: 'c', sql: 'CREATE TABLE c (x)' },
      ],
    });
    expect(later.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toEqual({ name: 'b' });
    later.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('skips the migration check on a database whose schema is current, and still applies a new migration', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'stamped.db');
    const first = [{ version: 1, name: 'a', sql: 'CREATE TABLE a (x)' }];
    const created = openDatabase(file, { migrations: first });
    expect(created.pragma('user_version', { simple: true })).toBe(schemaStamp(first));
    // Drop the record: a reopen that looked at it would write it again.
    created.exec('DROP TABLE schema_migrations');
    created.close();
    const current = openDatabase(file, { migrations: first });
    expect(current.prepare("SELECT name FROM sqlite_master WHERE name = 'schema_migrations'").get()).toBeUndefined();
    current.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    current.prepare("INSERT INTO schema_migrations VALUES (1, 'a', 0)").run();
    current.close();

    const second = [...first, { version: 2, name: 'b', sql: 'CREATE TABLE b (x)' }];
    const upgraded = openDatabase(file, { migrations: second });
    expect(upgraded.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toEqual({ name: 'b' });
    expect(upgraded.pragma('user_version', { simple: true })).toBe(schemaStamp(second));
    upgraded.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a database a newer tubekit migrated, leaving it as it was', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'newer.db');
    const newer = [
      { version: 1, name: 'a', sql: 'CREATE TABLE a (x)' },
      { version: 2, name: 'b', sql: 'CREATE TABLE b (x)' },
    ];
    openDatabase(file, { migrations: newer }).close();
    const stamp = schemaStamp(newer);
    expect(() => openDatabase(file, { migrations: [newer[0]!, { version: 3, name: 'c', sql: 'CREATE TABLE c (x)' }] })).toThrow(
      expect.objectContaining({ status: 503, code: 'store_too_new', message: expect.stringMatching(/was migrated by a newer version of tubekit \(migration 2 unknown to this one\)/) }),
    );
    const after = openDatabase(file, { migrations: newer });
    // Neither its version stamp nor its schema moved: the older binary applied nothing.
    expect(after.pragma('user_version', { simple: true })).toBe(stamp);
    expect(after.prepare("SELECT name FROM sqlite_master WHERE name = 'c'").get()).toBeUndefined();
    after.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stamps differ from each other and from legacy migration counts', () => {
    const stamp = schemaStamp(migrations);
    expect(stamp).toBeGreaterThan(migrations.length);
    expect(schemaStamp(migrations.slice(0, -1))).not.toBe(stamp);
  });

  it('has unique, increasing migration versions', () => {
    const versions = migrations.map((migration) => migration.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
  });
});
