/**
 * `serve` on a fleet store when the database is not there: at start it waits a bounded time, then
 * exits 9 saying so; while serving, a database that goes away makes requests answer 503 with a
 * clear error (never a 500 with a stack), health says so, and service resumes when it returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliSandbox, printedUrl, type CliSandbox } from '../support/cli.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

describe('serve readiness on PostgreSQL', () => {
  let postgres: PostgresServer;
  let sandbox: CliSandbox;
  beforeAll(async () => {
    // A server of its own: this suite stops it, which the run's shared server must never be.
    postgres = await startPostgres();
    sandbox = cliSandbox();
  }, 60_000);
  afterAll(async () => {
    sandbox?.cleanup();
    await postgres?.stop();
  });

  it('waits for an unreachable database, then exits 9 naming it', async () => {
    const started = Date.now();
    const result = await sandbox.run(['serve', '--port', '0', '--wait-for-store', '2', '--store', 'postgres://tubekit:secret@127.0.0.1:1/fleet']);
    expect(result.exitCode).toBe(9);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(result.stderr).toMatch(/Waiting for the database postgres:\/\/tubekit:\*\*\*@127\.0\.0\.1:1\/fleet/);
    expect(result.stderr).toMatch(/Gave up after waiting 2 s for the database postgres:\/\/tubekit:\*\*\*@127\.0\.0\.1:1\/fleet: it cannot be reached \(connect ECONNREFUSED/);
    expect(result.stderr).toMatch(/--wait-for-store <seconds> waits longer/);
    expect(result.stderr).not.toMatch(/resumes by itself/);
    // The password never shows.
    expect(result.stderr).not.toContain('secret');
  });

  it('answers 503 while the database is away, and serves again once it is back', async () => {
    const store = `${postgres.baseUrl}/postgres`;
    const child = sandbox.spawn(['serve', '--port', '0', '--store', store]);
    try {
      const url = await printedUrl(child);
      const key = (await sandbox.run(['engine', 'keys', 'create', '--plan', 'ultimate'], { env: { TUBEKIT_STORE: store } })).stdout.trim();
      const folders = () => fetch(`${url}/api/folders`, { headers: { authorization: `Bearer ${key}` } });
      expect((await folders()).status).toBe(200);

      await postgres.pause();
      const away = await folders();
      expect(away.status).toBe(503);
      const body = (await away.json()) as { success: boolean; code: string; error: string; hint: string };
      expect(body).toMatchObject({ success: false, code: 'store_unavailable' });
      expect(body.error).toMatch(/^Service unavailable: the database \(postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres\) cannot be reached/);
      expect(body.error).not.toMatch(/\n\s+at /);
      expect(away.headers.get('retry-after')).toBe('5');
      // A write that needs a folder: the folder cannot be read, which is not "it does not exist" (400).
      const save = await fetch(`${url}/api/saved-channels`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ folder_id: 1, channel_ids: ['UC-G4LyTAzHi0Xaj33Fjszrg'] }),
      });
      expect(save.status).toBe(503);
      expect(await save.json()).toMatchObject({ code: 'store_unavailable' });
      // With or without a key (one that cannot be checked now is no error for health): the degraded report.
      for (const headers of [{}, { authorization: `Bearer ${key}` }, { authorization: 'Bearer tk_not_a_key' }]) {
        const response = await fetch(`${url}/api/health`, { headers });
        expect(response.status).toBe(200);
        const health = (await response.json()) as { status: string; store: unknown };
        expect(health).toMatchObject({ status: 'degraded', store: { kind: 'postgres', reachable: false, schema_version: null } });
      }

      await postgres.resume();
      let status = 0;
      for (const deadline = Date.now() + 10_000; status !== 200 && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
        status = (await folders()).status;
      }
      expect(status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await child;
    }
  }, 60_000);
});
