/**
 * A real PostgreSQL server for the tests: the Debian package's binaries, started in a temporary
 * directory on a free port (its unix socket in that directory too), once per test run, by the
 * global setup (test/support/postgres-global-setup.ts). A migrated template database is made
 * once; each suite gets its own database copied from it (`CREATE DATABASE … TEMPLATE`).
 *
 * PostgreSQL refuses to run as root, and tests here and in CI run as root: the server then runs as
 * `nobody` (setpriv), in a directory handed to that user.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PostgresServer {
  /** URL of the `postgres` maintenance database. */
  adminUrl: string;
  /** Base URL (no database): append a database name. */
  baseUrl: string;
  dir: string;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
  /** Stops the server, keeping its data (a database that went away)… */
  pause(): Promise<void>;
  /** …and starts it again on the same port (it came back). */
  resume(): Promise<void>;
}

const NOBODY = 65534;

/** The directory of initdb/postgres: TUBEKIT_TEST_PG_BIN, then PATH, then the newest /usr/lib/postgresql/<n>/bin. */
export function postgresBinDir(): string {
  const named = process.env.TUBEKIT_TEST_PG_BIN;
  if (named) return named;
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'postgres'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = path.join(root, version, 'bin');
    if (fs.existsSync(path.join(dir, 'postgres'))) return dir;
  }
  throw new Error('PostgreSQL is not installed: no initdb/postgres on PATH or under /usr/lib/postgresql/*/bin (apt-get install postgresql, or set TUBEKIT_TEST_PG_BIN).');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs as `nobody` when we are root (PostgreSQL will not run as root). */
function asServerUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', command, ...args]];
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-pg-'));
  fs.chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) fs.chownSync(dir, NOBODY, NOBODY);
  const data = path.join(dir, 'data');
  const [initCommand, initArgs] = asServerUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const init = spawnSync(initCommand, initArgs, { encoding: 'utf8', cwd: dir });
  if (init.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout || init.error?.message}`);
  }
  const port = await freePort();
  const settings = [
    ['listen_addresses', '127.0.0.1'],
    ['port', String(port)],
    ['unix_socket_directories', dir],
    // A throwaway server: durability buys nothing here and costs the tests time.
    ['fsync', 'off'],
    ['synchronous_commit', 'off'],
    ['full_page_writes', 'off'],
    ['max_connections', '300'],
    ['shared_buffers', '128MB'],
  ];
  const baseUrl = `postgres://postgres@127.0.0.1:${port}`;
  const adminUrl = `${baseUrl}/postgres`;
  const launch = async () => {
    const [command, args] = asServerUser(path.join(bin, 'postgres'), ['-D', data, ...settings.flatMap(([name, value]) => ['-c', `${name}=${value}`])]);
    const child: ChildProcess = spawn(command, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitForServer(adminUrl, child, () => log);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
    return async () => {
      if (child.exitCode === null) {
        // Fast shutdown: ends open connections and stops.
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    };
  };
  let halt: (() => Promise<void>) | undefined;
  try {
    halt = await launch();
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    adminUrl,
    baseUrl,
    dir,
    async pause() {
      await halt?.();
      halt = undefined;
    },
    async resume() {
      halt ??= await launch();
    },
    async stop() {
      await halt?.();
      halt = undefined;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForServer(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const { default: pg } = await import('pg');
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode}) before accepting connections: ${log()}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 30 s: ${(error as Error).message}\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
