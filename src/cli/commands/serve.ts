import type { Command } from 'commander';
import type { CliApp } from '../app.js';
import { parseWholeNumber } from '../arguments.js';
import { openAtDataDir } from '../data-dir.js';
import { withExamples } from '../help.js';
import { listenError, untilStopped } from '../listen.js';
import { refuseRemoteFlags } from './engine/local-only.js';

interface ServeFlags {
  host: string;
  port: string;
  log?: boolean;
  bodyTimeout: string;
  bodyMinRate: string;
  bodyMaxTime: string;
  workers: string;
  alertsEvery: string;
  allowedHost?: string[];
  ui: boolean;
  /** true: --migrate; false: --no-migrate; undefined: only an empty database. */
  migrate?: boolean;
  waitForStore: string;
  allowLoopbackWebhooks?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerServe(program: Command, app: CliApp): void {
  const serve = withExamples(
    program
      .command('serve')
      .description('Expose the embedded engine as the REST API (prints its base URL on stdout)')
      .option('--host <host>', 'interface to listen on', '127.0.0.1')
      .option('--port <port>', 'port; 0 picks a free one', '8787')
      .option('--log', 'log each request to stderr (keys redacted)')
      .option('--body-timeout <seconds>', 'close a request whose body sends no byte for this long, with 408', '30')
      .option('--body-min-rate <bytes>', 'close a request whose body arrives slower than this many bytes a second (judged over --body-timeout), with 408', '512')
      .option('--body-max-time <seconds>', 'close a request whose whole body takes longer than this, with 408', '600')
      .option('--allowed-host <host>', 'a Host (name or name:port) clients may call the server by beside its listen address, e.g. behind a proxy; repeatable; * for any', collect)
      .option('--workers <n>', 'channel jobs this server runs at once (generation and analysis jobs have their own slots); 0: none, an API-only server of a fleet whose jobs `tubekit engine worker` runs elsewhere', '2')
      .option('--alerts-every <minutes>', 'run an alert evaluation cycle every N minutes (0: never)', '60')
      .option('--no-ui', 'serve the API only, without the web dashboard at /')
      .option('--allow-loopback-webhooks', 'let webhook endpoints be http:// receivers on this machine (127.0.0.1, ::1), for local development and tests')
      .option('--migrate', 'with --store postgres://…: apply pending migrations at start (without it, only an empty database is migrated; otherwise serve refuses to start while some are pending: run `tubekit engine migrate`)')
      .option('--no-migrate', 'with --store postgres://…: never migrate at start, not even an empty database')
      .option('--wait-for-store <seconds>', 'with --store postgres://…: how long to wait for the database at start before exiting 9', '30'),
    [
      'tubekit serve                             # http://127.0.0.1:8787',
      'tubekit serve --port 0 --log',
      'tubekit serve --no-ui                          # the API only, no dashboard at /',
      'tubekit serve --alerts-every 15                # alert cycles every 15 minutes',
      'tubekit serve --store postgres://tubekit@db.internal/tubekit --host 0.0.0.0   # one of a fleet sharing one database',
      'tubekit serve --host 0.0.0.0 --allowed-host api.example.com   # behind a proxy that keeps the Host',
      'TUBEKIT_BASE_URL=http://127.0.0.1:8787 TUBEKIT_API_KEY=$(tubekit engine keys create --plan starter) tubekit folders list',
    ],
  );
  refuseRemoteFlags(serve, app, '`tubekit serve`');
  serve.action(async (options: ServeFlags) => {
    const port = parseWholeNumber(options.port, '--port', { min: 0, max: 65535 });
    const workers = parseWholeNumber(options.workers, '--workers', { min: 0, max: 64 });
    const alertsEveryMinutes = parseWholeNumber(options.alertsEvery, '--alerts-every', { min: 0, max: 10_080 });
    const bodyBounds = {
      stallSeconds: parseWholeNumber(options.bodyTimeout, '--body-timeout', { min: 1, max: 3600 }),
      minBytesPerSecond: parseWholeNumber(options.bodyMinRate, '--body-min-rate', { min: 0, max: 1e9 }),
      maxSeconds: parseWholeNumber(options.bodyMaxTime, '--body-max-time', { min: 1, max: 86_400 }),
    };
    const waitMs = parseWholeNumber(options.waitForStore, '--wait-for-store', { min: 0, max: 3600 }) * 1000;
    const { openEngine } = await import('../../engine/open-engine.js');
    const { startServer } = await import('../../server/serve.js');
    // Its own vision model settings (environment, then profile): never a caller's.
    const engine = await openAtDataDir(app.settings.dataDir, () =>
      openEngine({
        dataDir: app.settings.dataDir,
        store: app.settings.store,
        filesDir: app.settings.filesDir,
        platform: app.platformOptions,
        analysisSettings: app.analysisSettings(),
        speechSettings: app.speechSettings(),
        ...(options.allowLoopbackWebhooks ? { webhooks: { allowLoopback: true } } : {}),
        // --workers 0: queued jobs are left to the workers of other processes.
        jobRunner: workers === 0 ? { mode: 'none' } : undefined,
        storeOpening: { migrations: options.migrate === undefined ? 'apply-if-empty' : options.migrate ? 'apply' : 'require', waitMs, onWait: (line) => app.io.note(line) },
      }),
    );
    await engine.defaultKey();
    const server = await startServer({ engine, host: options.host, port, logRequests: options.log, bodyBounds, allowedHosts: options.allowedHost, workers, alertsEveryMinutes, dashboard: options.ui ? {} : false }).catch(async (error: NodeJS.ErrnoException) => {
      await engine.close();
      throw listenError(error, options.host, port);
    });
    app.io.out(server.url);
    const where = app.settings.store.kind === 'postgres' ? `${app.settings.dataDir} on ${app.settings.store.description}` : app.settings.dataDir;
    app.io.note(`Serving the embedded engine at ${where}${options.ui ? `, the dashboard at ${server.url}/` : ''}. Ctrl-C stops.`);
    await untilStopped();
    await server.close();
    await engine.close();
  });
}
