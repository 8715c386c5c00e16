/**
 * The local default identity on a fleet: every machine (data dir) that runs a local command or a
 * server on the shared store gets a key of its own for one shared operator account, not an Ultimate
 * user of its own — so what an operator makes from one machine is theirs from any other.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { cliSandbox, type CliSandbox } from '../support/cli.js';
import { createTestDatabase } from '../support/postgres.js';

const sandboxes: CliSandbox[] = [];
afterEach(() => {
  for (const sandbox of sandboxes.splice(0)) sandbox.cleanup();
});

it('gives each machine its own key to one shared operator account', async () => {
  const url = await createTestDatabase();
  const machine = () => {
    const sandbox = cliSandbox();
    sandboxes.push(sandbox);
    return (args: string[]) => sandbox.run(['--json', ...args], { env: { TUBEKIT_STORE: url } });
  };
  const [first, second, third] = [machine(), machine(), machine()];
  expect((await first(['folders', 'create', 'Made on the first'])).exitCode).toBe(0);
  expect((await second(['folders', 'create', 'Made on the second'])).exitCode).toBe(0);
  const listed = JSON.parse((await third(['folders', 'list'])).stdout);
  expect(listed.folders.map((folder: { name: string }) => folder.name)).toEqual(['Made on the first', 'Made on the second']);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const users = (await client.query('SELECT id, plan FROM users WHERE is_default = 1')).rows;
    expect(users).toEqual([{ id: expect.anything(), plan: 'ultimate' }]);
    const keys = (await client.query('SELECT COUNT(*)::int AS n FROM api_keys WHERE user_id = $1', [users[0].id])).rows[0].n;
    expect(keys).toBe(3);
  } finally {
    await client.end();
  }
}, 60_000);
