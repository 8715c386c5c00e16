import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine.js';
import { sweepScratch } from '../engine/scratch.js';
import { ffmpegAvailable } from '../engine/speech/decode.js';
import { buildApp } from './app.js';
import { startDeliveryLoop } from '../engine/features/webhooks/delivery.js';
import type { BodyBounds } from './body-guard.js';
import type { DashboardOptions } from './ui/dashboard.js';

export interface ServeOptions {
  engine: Engine;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  logRequests?: boolean;
  /** How long a request body may stall or take before a 408 (DEFAULT_BODY_BOUNDS). */
  bodyBounds?: Partial<BodyBounds>;
  /** Host names requests may name beside the listen address (`serve --allowed-host`; `*` for any). */
  allowedHosts?: readonly string[];
  /** The web dashboard's settings; false turns it off (`serve --no-ui`). */
  dashboard?: DashboardOptions | false;
  /** Jobs this process runs at once; serve always runs its own workers (default 2). */
  workers?: number;
  /** Runs an alert evaluation cycle at start and then every this many minutes (none when absent or 0). */
  alertsEveryMinutes?: number;
  /** Where scheduled cycles report failures (default: stderr). */
  log?: (line: string) => void;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Starts the REST API; resolves once it listens, with its base URL. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const app = buildApp({ engine: options.engine, logRequests: options.logRequests, bodyBounds: options.bodyBounds, allowedHosts: options.allowedHosts, dashboard: options.dashboard });
  const host = options.host ?? '127.0.0.1';
  // Renders a killed server left half done go before any new one starts.
  await sweepScratch(options.engine.dataDir);
  await app.listen({ host, port: options.port ?? 8787 });
  // Serve runs its jobs itself, starting with any left waiting in the data dir; every feature is
  // loaded first so a processor exists for every kind of job.
  await options.engine.loadAllFeatures();
  // Health reports a missing ffmpeg without waiting for the probe: start it now.
  void ffmpegAvailable();
  options.engine.jobs.startWorkers(options.workers);
  // Webhooks go out from the same processes as jobs (none on an API-only server of a fleet).
  const stopDeliveries = options.workers === 0 ? async () => undefined : startDeliveryLoop(options.engine, options.log ?? ((line) => process.stderr.write(`${line}\n`)));
  const stopAlerts = scheduleAlertCycles(options);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    app,
    url: `http://${shownHost}:${port}`,
    close: async () => {
      stopAlerts();
      await stopDeliveries();
      return app.close();
    },
  };
}

/**
 * Alert cycles on a timer; a cycle over an unmoved world with no edited alerts costs next to
 * nothing. On a live data dir each is a refresh sweep (the live alert cycle): the watched channels
 * due are read again first.
 */
function scheduleAlertCycles(options: ServeOptions): () => void {
  const minutes = options.alertsEveryMinutes ?? 0;
  if (minutes <= 0) return () => undefined;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const run = () => {
    options.engine.scheduledCycle().catch((error: Error) => log(`alert cycle failed: ${error.message}`));
  };
  const first = setTimeout(run, 0);
  const timer = setInterval(run, minutes * 60_000);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
