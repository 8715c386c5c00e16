import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine.js';
import { buildApp } from './app.js';

export interface ServeOptions {
  engine: Engine;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  logRequests?: boolean;
  /** Jobs this process runs at once; serve always runs its own workers (default 2). */
  workers?: number;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Starts the REST API; resolves once it listens, with its base URL. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const app = buildApp({ engine: options.engine, logRequests: options.logRequests });
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 8787 });
  // Serve runs its jobs itself, starting with any left waiting in the data dir; every feature is
  // loaded first so a processor exists for every kind of job.
  await options.engine.loadAllFeatures();
  options.engine.jobs.startWorkers(options.workers);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    app,
    url: `http://${shownHost}:${port}`,
    close: () => app.close(),
  };
}
