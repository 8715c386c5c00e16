/**
 * `tubekit engine copy-store` as a script runs it (the built binary): --json is the summary body,
 * a second run writes nothing, a key made on the data dir works on another machine of the fleet
 * afterwards, a target holding other data is refused (exit 2) unless --force, an unreachable target
 * exits 9 without showing its password, and what is not a data dir is refused (exit 2).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COPIED_TABLES } from '../../src/engine/store/copy/copy-tables.js';
import { cliSandbox, type CliSandbox } from '../support/cli.js';
import { createTestDatabase } from '../support/postgres.js';
import { hasScript, runOnTerminal } from '../support/terminal.js';

interface Summary {
  from: string;
  to: string;
  schema_version: number;
  tables: Record<string, { rows: number; written: number; skipped: number; skipped_reason?: string }>;
  not_copied: Record<string, string>;
}

describe('tubekit engine copy-store', () => {
  let sandbox: CliSandbox;
  let store: string;
  let key: string;

  const ok = async (args: string[], env: Record<string, string> = {}) => {
    const result = await sandbox.run(args, { env });
    if (result.exitCode !== 0) throw new Error(`tubekit ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
    return result;
  };

  beforeAll(async () => {
    sandbox = cliSandbox();
    store = await createTestDatabase({ migrated: false });
    key = (await ok(['engine', 'keys', 'create', '--plan', 'starter'])).stdout.trim();
    await ok(['folders', 'create', 'Cooking'], { TUBEKIT_API_KEY: key });
    await ok(['folders', 'create', 'Gaming'], { TUBEKIT_API_KEY: key });
  }, 60_000);
  afterAll(() => sandbox?.cleanup());

  it('copies the data dir into an empty PostgreSQL and prints the summary body with --json', async () => {
    const result = await ok(['engine', 'copy-store', '--to', store, '--json']);
    const summary = JSON.parse(result.stdout) as Summary;
    expect(summary.from).toBe(`sqlite:${path.join(sandbox.dataDir, 'tubekit.db')}`);
    expect(summary.to).toBe(store);
    expect(summary.schema_version).toBeGreaterThanOrEqual(1);
    expect(Object.keys(summary.tables)).toEqual(COPIED_TABLES.map((table) => table.table));
    expect(summary.tables.users).toEqual({ rows: 1, written: 1, skipped: 0 });
    expect(summary.tables.folders).toEqual({ rows: 2, written: 2, skipped: 0 });
    expect(summary.not_copied).toHaveProperty('job_workers');
    // No key, no hash on any output.
    expect(result.stdout + result.stderr).not.toContain(key);
    // No progress bar when stderr is not a terminal.
    expect(result.stderr).toBe('');
  });

  it('writes nothing on a second run, and says so', async () => {
    const again = JSON.parse((await ok(['engine', 'copy-store', '--to', store, '--json'])).stdout) as Summary;
    for (const [table, copy] of Object.entries(again.tables)) expect(copy.written, table).toBe(0);
    const human = await ok(['engine', 'copy-store', '--to', store]);
    expect(human.stdout).toMatch(/^folders\t2\t0\t0$/m);
    expect(human.stderr).toMatch(/already held all \d+ rows .*nothing changed/);
  });

  it('gives the key to the fleet: another machine on the store authenticates with it and lists its folders', async () => {
    const other = cliSandbox();
    try {
      const listed = await other.run(['folders', 'list', '--json'], { env: { TUBEKIT_STORE: store, TUBEKIT_API_KEY: key } });
      expect(listed.exitCode).toBe(0);
      expect((JSON.parse(listed.stdout) as { folders: { name: string }[] }).folders.map((folder) => folder.name)).toEqual(['Cooking', 'Gaming']);
    } finally {
      other.cleanup();
    }
  });

  it('refuses a target holding other data with exit 2 naming it, and copies into it with --force', async () => {
    // A key made on the fleet itself.
    const other = cliSandbox();
    try {
      const made = await other.run(['engine', 'keys', 'create', '--plan', 'professional'], { env: { TUBEKIT_STORE: store } });
      expect(made.exitCode).toBe(0);
    } finally {
      other.cleanup();
    }
    const refused = await sandbox.run(['engine', 'copy-store', '--to', store]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/already holds data that did not come from sqlite:.*: users 1 row, api_keys 1 row\. Nothing was copied\./);
    expect(refused.stderr).toMatch(/--force/);
    const json = await sandbox.run(['engine', 'copy-store', '--to', store, '--json']);
    expect(json.exitCode).toBe(2);
    expect(JSON.parse(json.stderr.trim())).toMatchObject({ error: { code: 'usage', message: expect.stringMatching(/users 1 row/) } });
    expect(json.stdout).toBe('');
    const forced = await sandbox.run(['engine', 'copy-store', '--to', store, '--force', '--json']);
    expect(forced.exitCode).toBe(0);
    expect((JSON.parse(forced.stdout) as Summary).tables.users).toMatchObject({ rows: 1, written: 0 });
  });

  it.skipIf(!hasScript)('draws a progress bar on a terminal\'s stderr, and keeps stdout for the table', async () => {
    const target = await createTestDatabase({ migrated: false });
    const table = path.join(sandbox.dataDir, '..', 'copied.txt');
    const result = await runOnTerminal(sandbox, ['engine', 'copy-store', '--to', target, '--batch-size', '1'], { stdoutFile: table });
    expect(result.exitCode).toBe(0);
    expect(result.screen).toMatch(/\[#+-*\]\s+\d+%\s+\d+ rows \/ \d+ rows/);
    expect(result.screen).toMatch(/Copied \d+ rows of sqlite:/);
    const written = fs.readFileSync(table, 'utf8');
    expect(written).toMatch(/^folders\t2\t2\t0$/m);
    expect(written).not.toMatch(/rows \//);
  });

  it('exits 1 when a batch fails, saying where it stopped and what was copied before', async () => {
    const target = await createTestDatabase();
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    try {
      // A folder of the same user named like one of the source's, under another id (user 1 in place of the migration's operator account).
      await client.query('DELETE FROM users');
      await client.query("INSERT INTO users (id, name, plan, created_at) VALUES (1, 'someone', 'starter', 1)");
      await client.query("INSERT INTO folders (id, user_id, name, name_key, created_at) VALUES (900, 1, 'GAMING', 'gaming', 1)");
      const stopped = await sandbox.run(['engine', 'copy-store', '--to', target, '--force', '--batch-size', '1']);
      expect(stopped.exitCode).toBe(1);
      expect(stopped.stderr).toMatch(/Copying stopped at folders, row 2: duplicate key value violates unique constraint "folders_by_ascii_name"\. That batch was rolled back; copied before it: users 1 row, api_keys 1 row, folders 1 row\./);
      expect(stopped.stderr).toMatch(/Run the same command again/);
      expect(stopped.stdout).toBe('');
      const json = await sandbox.run(['engine', 'copy-store', '--to', target, '--force', '--json']);
      expect(json.exitCode).toBe(1);
      expect(JSON.parse(json.stderr.trim())).toMatchObject({ error: { code: 'copy_stopped' } });
      const { rows } = await client.query('SELECT id, name FROM folders ORDER BY id');
      expect(rows).toEqual([{ id: '1', name: 'Cooking' }, { id: '900', name: 'GAMING' }]);
    } finally {
      await client.end();
    }
  });

  it('exits 9 when the target cannot be reached, without showing its password', async () => {
    const result = await sandbox.run(['engine', 'copy-store', '--to', 'postgres://tubekit:secret@127.0.0.1:1/fleet']);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toMatch(/The database postgres:\/\/tubekit:\*\*\*@127\.0\.0\.1:1\/fleet cannot be reached \(connect ECONNREFUSED/);
    expect(result.stderr).not.toContain('secret');
  });

  it('refuses a source that is not a tubekit data dir, and a target that is not PostgreSQL, with exit 2', async () => {
    const empty = fs.mkdtempSync(path.join(sandbox.dataDir, '..', 'empty-'));
    const notDataDir = await sandbox.run(['engine', 'copy-store', '--from', `sqlite:${empty}`, '--to', store]);
    expect(notDataDir.exitCode).toBe(2);
    expect(notDataDir.stderr).toContain(`${empty} is not a tubekit data dir: it holds no tubekit.db`);
    expect(fs.readdirSync(empty)).toEqual([]);
    const noTarget = await sandbox.run(['engine', 'copy-store']);
    expect(noTarget.exitCode).toBe(2);
    expect(noTarget.stderr).toMatch(/--to postgres:\/\//);
    const sqliteTarget = await sandbox.run(['engine', 'copy-store', '--to', 'sqlite:/tmp/x.db']);
    expect(sqliteTarget.exitCode).toBe(2);
    const badBatch = await sandbox.run(['engine', 'copy-store', '--to', store, '--batch-size', '0']);
    expect(badBatch.exitCode).toBe(2);
  });
});

describe('tubekit engine copy-store of a live data dir', () => {
  it('copies its terminated channels into PostgreSQL, where another machine of the fleet finds them as the data dir did', async () => {
    const source = cliSandbox();
    const other = cliSandbox();
    try {
      const run = async (sandbox: CliSandbox, args: string[], env: Record<string, string> = {}) => {
        const result = await sandbox.run(args, { env });
        if (result.exitCode !== 0) throw new Error(`tubekit ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
        return result.stdout;
      };
      const file = path.join(source.dataDir, '..', 'terminated.jsonl');
      const id = (n: number) => `UC${String(n).padStart(22, 'd')}`;
      fs.writeFileSync(
        file,
        [1, 2, 3, 4]
          .map((n) => JSON.stringify({ channel_id: id(n), channel_title: `Sourdough lab ${n}`, terminated_date: `2026-10-0${n}`, subscriber_count: n === 2 ? null : 1000 * n, recent_videos: [{ video_id: `vid${n}xxxxxxx`, title: 'Crumb shot', view_count: n }] }))
          .join('\n'),
      );
      await run(source, ['engine', 'platform', 'live']);
      await run(source, ['engine', 'import', 'terminated', file]);
      const key = (await run(source, ['engine', 'keys', 'create', '--plan', 'starter'])).trim();
      const search = ['terminated', 'sourdough, crumb', '--sort', 'subs_desc', '--json'];
      const before = JSON.parse(await run(source, search, { TUBEKIT_API_KEY: key }));
      expect(before.total).toBe(4);

      const target = await createTestDatabase({ migrated: false });
      const summary = JSON.parse(await run(source, ['engine', 'copy-store', '--to', target, '--json'])) as Summary;
      expect(summary.tables.live_terminated).toEqual({ rows: 4, written: 4, skipped: 0 });

      const fleet = { TUBEKIT_STORE: target, TUBEKIT_API_KEY: key };
      await run(other, ['engine', 'platform', 'live'], fleet);
      expect(JSON.parse(await run(other, search, fleet))).toEqual(before);
      expect(JSON.parse(await run(other, ['terminated', 'show', id(3), '--json'], fleet)).channel).toMatchObject({ channel_id: id(3), subscriber_count: 3000 });
      // Imported on one machine of the fleet, it is found by every machine on the store (not in the data dir it came from).
      fs.writeFileSync(file, JSON.stringify({ channel_id: id(5), channel_title: 'Sourdough lab 5', terminated_date: '2026-10-05' }));
      await run(other, ['engine', 'import', 'terminated', file], fleet);
      expect(JSON.parse(await run(source, search, { TUBEKIT_STORE: target, TUBEKIT_API_KEY: key })).total).toBe(5);
      expect(JSON.parse(await run(source, search, { TUBEKIT_API_KEY: key })).total).toBe(4);
    } finally {
      source.cleanup();
      other.cleanup();
    }
  });
});
