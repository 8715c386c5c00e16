/**
 * When `serve` migrates a fleet's database: by itself only an empty one (a new fleet's servers
 * starting together); a database behind this version is left to `engine migrate` (or --migrate),
 * since the first upgraded server would otherwise change the schema under the rest; and a
 * database a newer tubekit migrated is refused untouched.
 */
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { cliSandbox, printedUrl, type CliSandbox } from '../support/cli.js';
import { migratePostgres } from '../../src/engine/store/postgres-migrate.js';
import { postgresMigrations } from '../../src/engine/store/postgres-migrations.js';
import { PostgresStore } from '../../src/engine/store/postgres-store.js';
import { createTestDatabase } from '../support/postgres.js';

const latest = postgresMigrations.at(-1)!;
let sandbox: CliSandbox;
afterEach(() => sandbox?.cleanup());

/** A database migrated by the previous version: every migration but the latest. */
async function behind(): Promise<string> {
  const url = await createTestDatabase({ migrated: false });
  const store = new PostgresStore(pg, url, 'test');
  await migratePostgres(store, postgresMigrations.slice(0, -1));
  await store.close();
  return url;
}

async function version(url: string): Promise<number> {
  const store = new PostgresStore(pg, url, 'test');
  try {
    return await store.schemaVersion();
  } finally {
    await store.close();
  }
}

it('refuses to start on a database behind this version, saying to run engine migrate', async () => {
  sandbox = cliSandbox();
  const url = await behind();
  const result = await sandbox.run(['serve', '--port', '0', '--store', url]);
  expect(result.exitCode).toBe(9);
  expect(result.stderr).toContain(`lacks 1 migration of this version of tubekit (${latest.version})`);
  expect(result.stderr).toContain('Run `tubekit engine migrate --store');
  expect(await version(url)).toBe(postgresMigrations.at(-2)!.version);
}, 60_000);

it('migrates such a database with --migrate, and an empty one by itself', async () => {
  sandbox = cliSandbox();
  for (const [url, args] of [[await behind(), ['--migrate']], [await createTestDatabase({ migrated: false }), []]] as const) {
    const child = sandbox.spawn(['serve', '--port', '0', '--workers', '0', '--store', url, ...args]);
    try {
      await printedUrl(child);
      expect(await version(url)).toBe(latest.version);
    } finally {
      child.kill('SIGTERM');
      await child;
    }
  }
}, 60_000);

it('refuses a database a newer tubekit migrated, in serve and in every command', async () => {
  sandbox = cliSandbox();
  const url = await createTestDatabase();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (100000, 'from the future', 0)");
  await admin.end();
  for (const args of [['serve', '--port', '0', '--migrate'], ['engine', 'migrate'], ['folders', 'list']]) {
    const result = await sandbox.run([...args, '--store', url]);
    expect(result.exitCode, args.join(' ')).toBe(9);
    expect(result.stderr).toMatch(/was migrated by a newer version of tubekit \(migration 100000 unknown to this one\)/);
  }
}, 60_000);
