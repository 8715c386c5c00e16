/**
 * Engine administration for jobs: `engine worker` (run queued jobs here), `engine faults`
 * (inject failures), `engine durations` (how long sample channel jobs pretend to work).
 */
import type { Command } from 'commander';
import { ServiceError } from '../../../core/errors.js';
import type { Engine } from '../../../engine/engine.js';
import type { CliApp } from '../../app.js';
import { parseWholeNumber } from '../../arguments.js';
import { openAtDataDir } from '../../data-dir.js';
import { usageError } from '../../../core/client-errors.js';
import { examples } from '../../help.js';
import { printJson, printTable } from '../../output.js';
import { withLocalEngine } from './local-engine.js';

export function registerEngineJobs(engine: Command, app: CliApp): void {
  registerWorker(engine, app);
  registerFaults(engine, app);
  registerDurations(engine, app);
}

function registerWorker(engine: Command, app: CliApp): void {
  engine
    .command('worker')
    .description('Run queued jobs in the foreground (Ctrl-C stops; its jobs go back to the queue)')
    .addHelpText('before', examples(['tubekit engine worker', 'tubekit engine worker --until-idle --idle 5 --concurrency 4']))
    .option('--until-idle', 'exit once the queue has been idle for a while (how local submits start workers)')
    .option('--idle <seconds>', 'with --until-idle: how long "a while" is', '15')
    .option('--concurrency <n>', 'channel jobs run at once (generation and analysis jobs have their own slots: up to the plan\'s concurrent-jobs cap)', '2')
    .option('--refresh-every <minutes>', 'on a live data dir: run a refresh sweep (the live alert cycle) at start and every N minutes (0: never)', '60')
    .option('--allow-loopback-webhooks', 'deliver to http:// webhook receivers on this machine (as `serve --allow-loopback-webhooks`)')
    .action(async (flags: { untilIdle?: boolean; idle: string; concurrency: string; refreshEvery: string; allowLoopbackWebhooks?: boolean }, self: Command) => {
      // Without --until-idle the worker never looks at idleness: an --idle there would be ignored.
      if (self.getOptionValueSource('idle') === 'cli' && !flags.untilIdle) {
        throw usageError('--idle only applies with --until-idle (without it the worker runs until stopped).', 'Add --until-idle: tubekit engine worker --until-idle --idle 5');
      }
      if (self.getOptionValueSource('refreshEvery') === 'cli' && flags.untilIdle) {
        throw usageError('--refresh-every applies to a worker that stays up, not with --until-idle.', 'Run `tubekit engine worker --refresh-every 30` without --until-idle.');
      }
      const concurrency = parseWholeNumber(flags.concurrency, '--concurrency', { min: 1, max: 64 });
      const refreshMinutes = parseWholeNumber(flags.refreshEvery, '--refresh-every', { min: 0, max: 10_080 });
      const idleMs = parseWholeNumber(flags.idle, '--idle', { min: 0 }) * 1000;
      const { openEngine } = await import('../../../engine/open-engine.js');
      const { runWorker } = await import('../../../engine/jobs/worker.js');
      const log = (line: string) => app.io.error(`${new Date().toISOString()} [worker ${process.pid}] ${line}`);
      // The worker's log (worker.log when detached) gets the live platform's notices too.
      const platform = { ...app.platformOptions, trace: log };
      const local = await openAtDataDir(app.settings.dataDir, () =>
        openEngine({ dataDir: app.settings.dataDir, store: app.settings.store, filesDir: app.settings.filesDir, jobRunner: { mode: 'none' }, platform, analysisSettings: app.analysisSettings(), speechSettings: app.speechSettings(), ...(flags.allowLoopbackWebhooks ? { webhooks: { allowLoopback: true } } : {}) }),
      );
      await local.loadAllFeatures();
      const stopping = new AbortController();
      const stop = () => stopping.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      log(`started on ${app.settings.store.kind === 'postgres' ? app.settings.store.description : app.settings.dataDir}${flags.untilIdle ? ` (exits after ${idleMs / 1000}s idle)` : ''}`);
      // A worker that stays up keeps a live data dir's watched channels fresh (a detached one exits when idle).
      // It runs the jobs of commands with its own settings (and those submitted without any).
      const [{ commandJobSettings }, { jobCommandSettings }] = await Promise.all([import('../../../engine/jobs/job-settings.js'), import('../../service-factory.js')]);
      const { digest } = commandJobSettings(app.settings.dataDir, app.io.streams.env, jobCommandSettings(app.settings));
      const stopSweeps = flags.untilIdle ? () => undefined : await scheduleLiveSweeps(local, refreshMinutes, log);
      const { startDeliveryLoop } = await import('../../../engine/features/webhooks/delivery.js');
      const stopDeliveries = startDeliveryLoop(local, log);
      try {
        const stats = await runWorker(local, {
          concurrency,
          untilIdle: Boolean(flags.untilIdle),
          idleMs,
          mode: flags.untilIdle ? 'detached' : 'foreground',
          settingsDigest: digest,
          log,
          signal: stopping.signal,
        });
        log(`stopped: ${stats.completed} completed, ${stats.failed} failed`);
      } finally {
        stopSweeps();
        await stopDeliveries();
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        await local.close();
      }
    });
}

/** Refresh sweeps on a timer when the data dir is live; nothing on the sample world. */
async function scheduleLiveSweeps(local: Engine, minutes: number, log: (line: string) => void): Promise<() => void> {
  const { dataDirPlatform } = await import('../../../engine/platform/factory/open-platform.js');
  if (minutes <= 0 || dataDirPlatform(local.localSettings) !== 'live') return () => undefined;
  const sweep = () => {
    local
      .scheduledCycle()
      .then((alerts) => log(`refresh sweep done: ${alerts.alerts_evaluated} alert(s) evaluated, ${alerts.new_channels} new channel(s)`))
      .catch((error: Error) => log(`refresh sweep failed: ${error.message}`));
  };
  const first = setTimeout(sweep, 0);
  const timer = setInterval(sweep, minutes * 60_000);
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

function registerFaults(engine: Command, app: CliApp): void {
  const faults = engine
    .command('faults')
    .description('Inject failures so every error branch can be tried')
    .addHelpText('before', examples(['tubekit engine faults list', 'tubekit engine faults set channel-job-fail', 'tubekit engine faults clear']));
  const show = async (active: string[]) => {
    const { knownFaults } = await import('../../../engine/faults.js');
    if (app.json) {
      printJson(app.io, { active, known: knownFaults });
      return;
    }
    await printTable(
      app.io,
      Object.entries(knownFaults),
      [
        { header: 'Fault', value: ([name]) => name },
        { header: 'State', value: ([name]) => (active.includes(name) ? 'on' : 'off') },
        { header: 'Effect', value: ([, effect]) => effect },
      ],
    );
  };
  faults
    .command('list')
    .description('Every fault, and which are on')
    .addHelpText('before', examples(['tubekit engine faults list']))
    .action(async () => {
      const { activeFaults } = await import('../../../engine/faults.js');
      await show(await withLocalEngine(app, (local) => activeFaults(local.settings)));
    });
  faults
    .command('set <name>')
    .description('Turn a fault on (every process on this data dir sees it)')
    .addHelpText('before', examples(['tubekit engine faults set channel-job-fail', 'tubekit engine faults set download-upstream   # downloads answer 502', 'tubekit engine faults set ad-flip             # monetized --exit-on-flip exits 11']))
    .action(async (name: string) => {
      const { setFault } = await import('../../../engine/faults.js');
      const active = await withLocalEngine(app, (local) => asUsage(() => setFault(local.settings, name)));
      if (app.json) await show(active);
      else app.io.note(`Fault ${name} is on. Turn it off with: tubekit engine faults clear ${name}`);
    });
  faults
    .command('clear [name]')
    .description('Turn one fault off, or all of them')
    .addHelpText('before', examples(['tubekit engine faults clear channel-job-fail', 'tubekit engine faults clear              # all of them']))
    .action(async (name: string | undefined) => {
      const { clearFault } = await import('../../../engine/faults.js');
      const active = await withLocalEngine(app, (local) => asUsage(() => clearFault(local.settings, name)));
      if (app.json) await show(active);
      else app.io.note(name ? `Fault ${name} is off.` : 'All faults are off.');
    });
}

function registerDurations(engine: Command, app: CliApp): void {
  engine
    .command('durations [duration]')
    .description('How long the sample world\'s slow work takes (channel jobs, live checks): short (default), realistic (the spec\'s ranges), instant, or MS / MIN-MAX ms for all of it')
    .addHelpText('before', examples(['tubekit engine durations                  # show it', 'tubekit engine durations realistic', 'tubekit engine durations 500-1500']))
    .action(async (text: string | undefined) => {
      const work = await import('../../../engine/simulated-work.js');
      const view = await withLocalEngine(app, async (local) => {
        if (text !== undefined) await work.setWorkSetting(local.settings, asUsage(() => work.parseWorkSetting(text)));
        const setting = work.workSetting(local.settings);
        const activities = Object.fromEntries(
          (Object.keys(work.workActivities) as (keyof typeof work.workActivities)[]).map((activity) => [activity, work.workDuration(local.settings, activity)]),
        );
        return { preset: 'preset' in setting ? setting.preset : null, activities };
      });
      if (app.json) printJson(app.io, view);
      else {
        if (app.io.stdoutIsTerminal) app.io.note(view.preset ? `Preset: ${view.preset}` : 'Custom: every activity takes the same range');
        for (const [activity, range] of Object.entries(view.activities)) app.io.out(`${activity}\t${range.min_ms}-${range.max_ms} ms`);
      }
    });
}

/** Engine-side validation errors are the user's typing here: exit 2, not a service failure. */
function asUsage<T>(step: () => T): T {
  const toUsage = (error: unknown): never => {
    if (error instanceof ServiceError && error.status === 400) throw usageError(error.message, error.hint);
    throw error;
  };
  try {
    const result = step();
    // An async step (a setting saved to the store) refuses by rejecting.
    return (result instanceof Promise ? result.catch(toUsage) : result) as T;
  } catch (error) {
    return toUsage(error);
  }
}
