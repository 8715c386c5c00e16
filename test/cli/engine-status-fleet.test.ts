/**
 * `engine status` on a fleet's store, as a new user would first try it: it names the store it read
 * (password masked) rather than the data dir's SQLite file, and writes nothing to any table — an
 * empty database stays empty (no sample world row, no user but the operator account `engine migrate`
 * made), so `copy-store` still finds it empty.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';
import { createTestDatabase } from '../support/postgres.js';

let sandbox: CliSandbox;
afterEach(() => sandbox?.cleanup());

async function rowCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (await client.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")).rows;
    const counts: Record<string, number> = {};
    for (const { name } of tables) counts[name] = Number((await client.query(`SELECT COUNT(*) AS n FROM ${name}`)).rows[0].n);
    return counts;
  } finally {
    await client.end();
  }
}

it('names the store it read, masked, and leaves an empty database empty', async () => {
  sandbox = cliSandbox();
  const url = await createTestDatabase();
  const withPassword = url.replace('postgres://postgres@', 'postgres://postgres:hunter2@');
  const before = await rowCounts(url);
  const result = await sandbox.run(['--json', 'engine', 'status', '--store', withPassword]);
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  const status = JSON.parse(result.stdout);
  const masked = withPassword.replace(':hunter2@', ':***@');
  expect(status).toMatchObject({ store: masked, database: masked, platform: 'sample', world: 'none yet: the first server on this store makes it', users: 1 });
  expect(status.database_bytes).toBeGreaterThan(0);
  expect(result.stdout).not.toContain('hunter2');
  expect(await rowCounts(url)).toEqual(before);
}, 60_000);
