/**
 * Shipped migrations are history: their rendered SQL is recorded in a file beside this test, so an
 * edit — to a migration or to a helper one renders from — shows as a failing test and a diff, not
 * as databases that differ by the version that made them. Appending a migration appends to the
 * file (`npx vitest run -u` on this file, then review that only the new one was added).
 */
import { describe, expect, it } from 'vitest';
import { migrations, type Migration } from '../../../../src/engine/store/migrations.js';
import { postgresMigrations } from '../../../../src/engine/store/postgres-migrations.js';

const rendered = (list: Migration[]) =>
  list
    .map((migration) => `-- ${migration.version}: ${migration.name}${migration.transactional === false ? ' (not in a transaction)' : ''}\n${migration.sql.trim()}\n`)
    .join('\n');

describe.each([
  ['sqlite', migrations],
  ['postgres', postgresMigrations],
] as const)('the %s migrations', (dialect, list) => {
  it('render the SQL they shipped with', async () => {
    await expect(rendered(list)).toMatchFileSnapshot(`./migrations/${dialect}.sql`);
  });

  it('have unique names and increasing versions', () => {
    expect(new Set(list.map((migration) => migration.name)).size).toBe(list.length);
    const versions = list.map((migration) => migration.version);
    expect([...versions].sort((a, b) => a - b)).toEqual(versions);
  });
});
