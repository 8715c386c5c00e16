/**
 * A fleet for tests: real `tubekit serve` processes and CLI commands, each from a data dir of its
 * own (another machine), all on one PostgreSQL database (`TUBEKIT_STORE`).
 */
import { cliSandbox, printedUrl, type CliSandbox } from './cli.js';

export interface FleetServer {
  sandbox: CliSandbox;
  child: ReturnType<CliSandbox['spawn']>;
  url: string;
  pid: number;
}

export class Fleet {
  /** Set before the first server starts (a database of `createTestDatabase`). */
  storeUrl = '';
  /** The servers running, in the order they started; stop() ends them all. */
  readonly servers: FleetServer[] = [];

  /** `tubekit serve` on a free port, no alert schedule unless `args` give one. */
  async start(args: string[] = []): Promise<FleetServer> {
    const sandbox = cliSandbox();
    const child = sandbox.spawn(['serve', '--port', '0', '--alerts-every', '0', ...args], { env: { TUBEKIT_STORE: this.storeUrl } });
    const server = { sandbox, child, url: await printedUrl(child), pid: child.pid! };
    this.servers.push(server);
    return server;
  }

  /** A CLI command on the fleet's store; its stdout, trimmed (a failure throws with its stderr). */
  async cli(args: string[]): Promise<string> {
    const sandbox = cliSandbox();
    try {
      const result = await sandbox.run(args, { env: { TUBEKIT_STORE: this.storeUrl } });
      if (result.exitCode !== 0) throw new Error(`tubekit ${args.join(' ')} exited ${result.exitCode}: ${result.stderr}`);
      return result.stdout.trim();
    } finally {
      sandbox.cleanup();
    }
  }

  /** Rows of a query on the fleet's database, read behind the servers' backs. */
  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: this.storeUrl });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    for (const server of this.servers.splice(0)) {
      server.child.kill('SIGTERM');
      await server.child;
      server.sandbox.cleanup();
    }
  }
}

/** A JSON request to one server with a key; the status and the parsed body. */
export async function fleetApi(server: FleetServer, path: string, init: { method?: string; body?: unknown; apiKey: string }) {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${init.apiKey}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
