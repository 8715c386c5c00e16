/** Everything the engine writes into its data dir is owner-only, whatever the umask. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine.js';
import { spawnDetachedWorker, workerLogFile } from '../../../src/engine/jobs/spawn.js';
import { databaseFile } from '../../../src/engine/paths.js';
import { tempDataDir } from '../../support/engines.js';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('data dir file modes', () => {
  let dataDir: string;
  let umask: number;
  beforeEach(() => {
    dataDir = tempDataDir();
    umask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(umask);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates the database and its -wal and -shm files 0600', async () => {
    const engine = Engine.open({ dataDir });
    try {
      (await engine.identity.createUserWithKey('starter', []));
      const db = databaseFile(dataDir);
      for (const file of [db, `${db}-wal`, `${db}-shm`]) expect([file, modeOf(file).toString(8)]).toEqual([file, '600']);
    } finally {
      engine.close();
    }
  });

  it('tightens a database an older version left readable by others', async () => {
    Engine.open({ dataDir }).close();
    const db = databaseFile(dataDir);
    fs.chmodSync(db, 0o644);
    fs.writeFileSync(`${db}-wal`, '');
    fs.chmodSync(`${db}-wal`, 0o644);
    const engine = Engine.open({ dataDir });
    engine.close();
    expect(modeOf(db).toString(8)).toBe('600');
  });

  it('creates the worker log 0600', async () => {
    fs.mkdirSync(dataDir, { recursive: true });
    // A launcher that exits at once: only the log file's creation is under test.
    const launcher = path.join(dataDir, 'noop.js');
    fs.writeFileSync(launcher, '');
    spawnDetachedWorker(dataDir, undefined, launcher);
    expect(modeOf(workerLogFile(dataDir)).toString(8)).toBe('600');
  });
});
