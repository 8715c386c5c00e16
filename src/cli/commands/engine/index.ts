/** `tubekit engine …`: administration of the embedded engine on the local data dir. */
import fs from 'node:fs';
import type { Command } from 'commander';
import { formatDuration } from '../../../core/duration.js';
import type { Engine } from '../../../engine/engine.js';
import { dataDirPlatform } from '../../../engine/platform/factory/open-platform.js';
import type { SimulatedWorld } from '../../../engine/platform/simulation.js';
import type { CliApp } from '../../app.js';
import { usageError } from '../../../core/client-errors.js';
import { examples, withExamples } from '../../help.js';
import { printJson, printRecord } from '../../output.js';
import { registerImport } from './import.js';
import { registerEngineJobs } from './jobs.js';
import { registerKeys } from './keys.js';
import { registerLimits } from './limits.js';
import { registerMigrate } from './migrate.js';
import { registerCopyStore } from './copy-store.js';
import { withLocalEngine } from './local-engine.js';
import { refuseRemoteFlags } from './local-only.js';
import { registerPlatform } from './platform.js';
import { registerRefresh } from './refresh.js';
import { registerWorld } from './world.js';
import { registerWorldClock } from './world-clock.js';

export function registerEngine(program: Command, app: CliApp): Command {
  const engine = withExamples(program.command('engine').description('Administer the embedded engine (keys, sample world, limits)'), [
    'tubekit engine keys create --plan starter --json',
    'tubekit engine sample channels --limit 10',
    'tubekit engine seed --channels 20000 --seed 7',
    'tubekit engine world advance 1d',
    'tubekit engine status',
  ]);
  refuseRemoteFlags(engine, app, '`tubekit engine`');
  registerKeys(engine, app);
  registerPlatform(engine, app);
  registerRefresh(engine, app);
  registerWorld(engine, app);
  registerWorldClock(engine, app);
  registerLimits(engine, app);
  registerEngineJobs(engine, app);
  registerMigrate(engine, app);
  registerImport(engine, app);
  registerCopyStore(engine, app);

  engine
    .command('cdn-url [url]')
    .description('Base URL under which generated files are published (default: file:// locally, the serve address remotely)')
    .addHelpText('before', examples(['tubekit engine cdn-url                          # show it', 'tubekit engine cdn-url https://cdn.example.com', 'tubekit engine cdn-url --clear']))
    .option('--clear', 'remove the setting')
    .action(async (url: string | undefined, options: { clear?: boolean }) => {
      const { CDN_BASE_URL_SETTING } = await import('../../../engine/features/public-url.js');
      if (url && !/^https?:\/\/\S+$/i.test(url)) throw usageError(`The CDN base URL must be an http(s) URL, not "${url}".`);
      const current = await withLocalEngine(app, async (local) => {
        if (options.clear) await local.settings.delete(CDN_BASE_URL_SETTING);
        else if (url) await local.settings.set(CDN_BASE_URL_SETTING, url.replace(/\/+$/, ''));
        return local.settings.get<string>(CDN_BASE_URL_SETTING) ?? null;
      });
      if (app.json) printJson(app.io, { cdn_base_url: current });
      else if (current) app.io.out(current);
      else app.io.note('No CDN base URL is set.');
    });

  engine
    .command('status')
    .description('Data dir, platform, sample world (and its current time), sizes, job counts and live workers')
    .addHelpText('before', examples(['tubekit engine status', 'tubekit engine status --json | jq .jobs']))
    .action(async () => {
      const status = await withLocalEngine(app, engineStatus);
      if (app.json) printJson(app.io, status);
      else printRecord(app.io, Object.entries(status));
    });
  return engine;
}

/** What the engine holds, read only: nothing is written to any store (a fleet's world is not made here). */
async function engineStatus(engine: Engine) {
  const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);
  const dbFile = engine.db.name;
  const fleet = engine.store.dialect === 'postgres';
  // Opening the sample platform of a fleet with no world yet would make one: only the first server does.
  const noFleetWorld =
    fleet && dataDirPlatform(engine.localSettings) === 'sample' && !(await engine.store.get('SELECT 1 AS present FROM sample_world WHERE id = 1'));
  const platform = noFleetWorld ? undefined : await engine.platform();
  const jobs = await engine.store.all<{ state: string; n: number }>('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state');
  return {
    data_dir: engine.dataDir,
    store: engine.store.description,
    database: fleet ? engine.store.description : dbFile,
    database_bytes: fleet ? (await engine.store.get<{ n: number }>('SELECT pg_database_size(current_database()) AS n'))!.n : size(dbFile) + size(`${dbFile}-wal`),
    platform: platform?.source ?? 'sample',
    // The sample world's figures; a live data dir has none.
    ...(platform?.simulation ? worldStatus(platform.simulation) : {}),
    ...(noFleetWorld ? { world: 'none yet: the first server on this store makes it' } : {}),
    users: await engine.identity.userCount(),
    jobs: Object.fromEntries(jobs.map((row) => [row.state, row.n])),
    workers: (await engine.jobs.hosts.live()).map((host) => ({ pid: host.pid, mode: host.mode, heartbeat_at: new Date(host.heartbeat_at).toISOString() })),
  };
}

function worldStatus(simulation: SimulatedWorld) {
  const world = simulation.info();
  return {
    world: 'sample',
    world_seed: world.seed,
    world_channels: world.channel_count,
    world_videos: world.video_count,
    world_terminated_channels: world.terminated_count,
    world_reference_date: world.reference_date,
    world_time: world.world_time,
    world_advanced: formatDuration(world.advanced_ms),
    world_arrived_channels: world.arrived_channels,
  };
}
