/**
 * An embedded engine on a fresh data dir, served on a free port, with one user's key: the fixture
 * of the server tests. `prepare` runs before the server starts (to seed a world, say).
 */
import fs from 'node:fs';
import { Engine } from '../../src/engine/engine.js';
import type { Scope } from '../../src/engine/identity/identity.js';
import type { Plan } from '../../src/engine/limits/plans.js';
import { startServer, type RunningServer, type ServeOptions } from '../../src/server/serve.js';
import { tempDataDir } from './engines.js';

export interface ServedEngine {
  engine: Engine;
  server: RunningServer;
  key: string;
  /** Stops the server, closes the engine and removes its data dir. */
  close(): Promise<void>;
}

export async function serveFreshEngine(
  plan: Plan,
  scopes: Scope[],
  options: Omit<ServeOptions, 'engine' | 'port'> & { prepare?: (engine: Engine) => Promise<void> } = {},
): Promise<ServedEngine> {
  const { prepare, ...serveOptions } = options;
  const dataDir = tempDataDir();
  const engine = Engine.open({ dataDir });
  await prepare?.(engine);
  const server = await startServer({ ...serveOptions, engine, port: 0 });
  const key = (await engine.identity.createUserWithKey(plan, scopes)).key;
  return {
    engine,
    server,
    key,
    async close() {
      await server.close();
      engine.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
