/**
 * The local default identity on a fleet: every machine (data dir) that runs a local command or a
 * server on the shared store gets a key of its own for one shared operator account, not an Ultimate
 * user of its own — so what an operator makes from one machine is theirs from any other. The
 * account is made with the schema (`engine migrate`, or serve migrating an empty database).
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { cliSandbox, printedUrl, type CliSandbox } from '../support/cli.js';
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

async function accounts(url: string): Promise<{ users: { id: number; name: string; plan: string; is_default: number }[]; keys: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const users = (await client.query('SELECT id::int AS id, name, plan, is_default FROM users ORDER BY id')).rows;
    const keys = (await client.query('SELECT COUNT(*)::int AS n FROM api_keys')).rows[0].n;
    return { users, keys };
  } finally {
    await client.end();
  }
}

it('is made by engine migrate, once, and two servers starting on the store only add their keys', async () => {
  const url = await createTestDatabase({ migrated: false });
  const admin = cliSandbox();
  sandboxes.push(admin);
  const first = await admin.run(['engine', 'migrate', '--store', url, '--json']);
  expect(first.exitCode).toBe(0);
  expect(JSON.parse(first.stdout)).toMatchObject({ operator_account_created: true });
  const migrated = await accounts(url);
  expect(migrated).toEqual({ users: [{ id: expect.any(Number), name: 'operator', plan: 'ultimate', is_default: 1 }], keys: 0 });
  // Running it again makes no second account.
  const second = await admin.run(['engine', 'migrate', '--store', url]);
  expect(second.exitCode).toBe(0);
  expect(second.stderr).not.toMatch(/operator account/);
  expect((await accounts(url)).users).toEqual(migrated.users);

  const servers = [cliSandbox(), cliSandbox()].map((sandbox) => {
    sandboxes.push(sandbox);
    return sandbox.spawn(['serve', '--port', '0', '--workers', '0', '--store', url]);
  });
  try {
    await Promise.all(servers.map((child) => printedUrl(child)));
  } finally {
    for (const child of servers) child.kill('SIGTERM');
    await Promise.all(servers);
  }
  expect(await accounts(url)).toEqual({ users: migrated.users, keys: 2 });
}, 90_000);

it('is made by serve migrating an empty database, and refused by name when missing', async () => {
  const url = await createTestDatabase({ migrated: false });
  const sandbox = cliSandbox();
  sandboxes.push(sandbox);
  const child = sandbox.spawn(['serve', '--port', '0', '--workers', '0', '--store', url]);
  try {
    await printedUrl(child);
  } finally {
    child.kill('SIGTERM');
    await child;
  }
  const served = await accounts(url);
  expect(served).toEqual({ users: [{ id: expect.any(Number), name: 'operator', plan: 'ultimate', is_default: 1 }], keys: 1 });

  // A store without it (the account deleted) is not given one by the next machine: it says how to make one.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('DELETE FROM users');
  await client.end();
  const other = cliSandbox();
  sandboxes.push(other);
  const result = await other.run(['folders', 'list'], { env: { TUBEKIT_STORE: url } });
  expect(result.exitCode).toBe(9);
  expect(result.stderr).toContain('has no operator account');
  expect(result.stderr).toContain('tubekit engine migrate');
  expect((await accounts(url)).users).toEqual([]);
}, 90_000);
