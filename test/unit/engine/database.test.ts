import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/engine/store/database.js';
import { migrations } from '../../../src/engine/store/migrations.js';
import { tempDataDir } from '../../support/engines.js';

describe('engine database', () => {
  it('opens in WAL mode with a busy timeout and applies every migration once', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'x.db');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThanOrEqual(5000);
    const latest = Math.max(...migrations.map((migration) => migration.version));
    expect(db.pragma('user_version', { simple: true })).toBe(latest);
    db.close();
    const again = openDatabase(file);
    expect(again.pragma('user_version', { simple: true })).toBe(latest);
    again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has unique, increasing migration versions', () => {
    const versions = migrations.map((migration) => migration.version);
    expect(new Set(versions).size).toBe(versions.length);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
  });
});
