import fs from 'node:fs';
import type { Command } from 'commander';
import type { Engine } from '../../engine/engine.js';
import type { CliApp } from '../app.js';
import { parseWholeNumber } from '../arguments.js';
import { usageError } from '../errors.js';
import { withExamples } from '../help.js';
import { registerEngineJobs } from './engine-jobs.js';
import { count, printJson, printRecord, printTable } from '../output.js';

/** Engine administration always acts on the local data dir, whatever the remote settings. */
export async function withLocalEngine<T>(app: CliApp, work: (engine: Engine) => T | Promise<T>): Promise<T> {
  const { Engine } = await import('../../engine/engine.js');
  const engine = Engine.open({ dataDir: app.settings.dataDir });
  try {
    return await work(engine);
  } finally {
    engine.close();
  }
}

export function registerEngine(program: Command, app: CliApp): Command {
  const engine = withExamples(program.command('engine').description('Administer the embedded engine (keys, sample world, limits)'), [
    'tubekit engine keys create --plan starter --json',
    'tubekit engine sample channels --limit 10',
    'tubekit engine seed --channels 20000 --seed 7',
    'tubekit engine status',
  ]);
  registerKeys(engine, app);
  registerWorld(engine, app);
  registerLimits(engine, app);
  registerEngineJobs(engine, app);

  engine
    .command('cdn-url [url]')
    .description('Base URL under which generated files are published (default: file:// locally, the serve address remotely)')
    .option('--clear', 'remove the setting')
    .action(async (url: string | undefined, options: { clear?: boolean }) => {
      const { CDN_BASE_URL_SETTING } = await import('../../engine/features/generation/public-url.js');
      if (url && !/^https?:\/\/\S+$/i.test(url)) throw usageError(`The CDN base URL must be an http(s) URL, not "${url}".`);
      const current = await withLocalEngine(app, (local) => {
        if (options.clear) local.settings.delete(CDN_BASE_URL_SETTING);
        else if (url) local.settings.set(CDN_BASE_URL_SETTING, url.replace(/\/+$/, ''));
        return local.settings.get<string>(CDN_BASE_URL_SETTING) ?? null;
      });
      if (app.json) printJson(app.io, { cdn_base_url: current });
      else if (current) app.io.out(current);
      else app.io.note('No CDN base URL is set.');
    });

  engine
    .command('status')
    .description('Data dir, sample world, sizes')
    .action(async () => {
      const status = await withLocalEngine(app, (local) => engineStatus(local));
      if (app.json) printJson(app.io, status);
      else printRecord(app.io, Object.entries(status));
    });
  return engine;
}

function engineStatus(engine: Engine) {
  const world = engine.platform.info();
  const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);
  const dbFile = engine.db.name;
  const jobs = engine.db
    .prepare<[], { state: string; n: number }>('SELECT state, COUNT(*) AS n FROM jobs GROUP BY state')
    .all();
  return {
    data_dir: engine.dataDir,
    database: dbFile,
    database_bytes: size(dbFile) + size(`${dbFile}-wal`),
    world: 'sample',
    world_seed: world.seed,
    world_channels: world.channel_count,
    world_videos: world.video_count,
    world_reference_date: world.reference_date,
    users: engine.identity.userCount(),
    jobs: Object.fromEntries(jobs.map((row) => [row.state, row.n])),
  };
}

function registerKeys(engine: Command, app: CliApp): void {
  const keys = engine.command('keys').description('API keys of the embedded engine');
  keys
    .command('create')
    .description('Create a user with a plan and print its new key (shown once)')
    .option('--plan <plan>', 'starter, professional, ultimate or none', 'ultimate')
    .option('--scope <scope...>', 'scopes to grant (generations)')
    .action(async (options: { plan: string; scope?: string[] }) => {
      const { isPlan, PLANS } = await import('../../engine/limits/plans.js');
      const { SCOPES } = await import('../../engine/identity/identity.js');
      if (!isPlan(options.plan)) throw usageError(`--plan must be one of ${PLANS.join(', ')}, not "${options.plan}".`);
      const scopes = options.scope ?? [];
      const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
      if (unknown.length > 0) throw usageError(`Unknown scope ${unknown.join(', ')}; scopes: ${SCOPES.join(', ')}.`);
      const created = await withLocalEngine(app, (local) =>
        local.identity.createUserWithKey(options.plan as never, scopes as never),
      );
      if (app.json) printJson(app.io, created);
      else {
        app.io.out(created.key);
        app.io.note(`Key for user ${created.user_id} (${created.plan}${created.scopes.length ? `, scopes: ${created.scopes.join(',')}` : ''}). It is shown only now.`);
      }
    });
  keys
    .command('list')
    .description('List keys (prefixes only; keys are stored hashed)')
    .action(async () => {
      const list = await withLocalEngine(app, (local) => {
        local.defaultKey();
        return local.identity.listKeys();
      });
      if (app.json) printJson(app.io, { keys: list });
      else
        await printTable(app.io, list, [
          { header: 'Prefix', value: (key) => key.prefix },
          { header: 'User', value: (key) => key.user_id },
          { header: 'Plan', value: (key) => key.plan },
          { header: 'Scopes', value: (key) => key.scopes.join(',') },
          { header: 'Created', value: (key) => key.created_at },
          { header: 'State', value: (key) => (key.revoked ? 'revoked' : key.default ? 'active (default)' : 'active') },
        ]);
    });
  keys
    .command('revoke <key>')
    .description('Revoke a key, given whole or by the prefix shown in `keys list`')
    .action(async (key: string) => {
      const revoked = await withLocalEngine(app, (local) => local.identity.revokeKey(key.trim()));
      if (app.json) printJson(app.io, { success: true, revoked: revoked.prefix });
      else app.io.note(`Revoked ${revoked.prefix}…`);
    });
}

function registerWorld(engine: Command, app: CliApp): void {
  engine
    .command('seed')
    .description('Rebuild the sample world from a seed and a size')
    .option('--channels <n>', 'number of channels', '3000')
    .option('--seed <s>', 'seed', '1')
    .action(async (options: { channels: string; seed: string }) => {
      const channels = parseWholeNumber(options.channels, '--channels', { min: 10, max: 2_000_000 });
      const seed = /^\d+$/.test(options.seed) ? Number(options.seed) : options.seed;
      const spinner = await app.io.spinner(`Generating ${channels} channels…`);
      const info = await withLocalEngine(app, (local) => local.reseedWorld({ seed: seed as number, channels }).info());
      spinner.stop();
      if (app.json) printJson(app.io, info);
      else printRecord(app.io, Object.entries(info));
    });

  engine
    .command('sample')
    .description('Things to try offline')
    .command('channels')
    .description('List sample-world channels (ids, handles, titles) to try commands with')
    .option('--limit <n>', 'how many', '20')
    .action(async (options: { limit: string }) => {
      const limit = parseWholeNumber(options.limit, '--limit', { min: 1, max: 1000 });
      const channels = await withLocalEngine(app, (local) => local.platform.sampleChannels(limit));
      const rows = channels.map((channel) => ({
        channel_id: channel.channel_id,
        handle: channel.handle,
        title: channel.title,
        language: channel.language,
        category: channel.category,
        content_type: channel.content_type,
        subscribers: channel.subscribers,
      }));
      if (app.json) printJson(app.io, { channels: rows });
      else
        await printTable(app.io, rows, [
          { header: 'Channel', value: (row) => row.channel_id },
          { header: 'Handle', value: (row) => row.handle },
          { header: 'Title', value: (row) => row.title },
          { header: 'Language', value: (row) => row.language },
          { header: 'Type', value: (row) => row.content_type },
          { header: 'Subscribers', value: (row) => count(app.io, row.subscribers) },
        ]);
    });
}

function registerLimits(engine: Command, app: CliApp): void {
  const limits = engine.command('limits').description("The engine's plan table (documented defaults plus overrides)");
  limits
    .command('list')
    .description('Show every limit per plan')
    .action(async () => {
      const { PLANS } = await import('../../engine/limits/plans.js');
      const table = await withLocalEngine(app, (local) => Object.fromEntries(PLANS.map((plan) => [plan, local.planLimits(plan)])));
      if (app.json) printJson(app.io, table);
      else {
        const names = Object.keys(table.professional);
        await printTable(
          app.io,
          names,
          [{ header: 'Limit', value: (name: string) => name }, ...PLANS.map((plan) => ({
            header: plan,
            value: (name: string) => {
              const value = (table[plan] as unknown as Record<string, unknown>)[name];
              return value === null ? 'unlimited' : String(value);
            },
          }))],
        );
      }
    });
  limits
    .command('set <plan> <name> <value>')
    .description('Override one limit for one plan (a number, "unlimited", or true/false)')
    .action(async (plan: string, name: string, value: string) => {
      const { isPlan, limitNames, parseLimitValue } = await import('../../engine/limits/plans.js');
      if (!isPlan(plan)) throw usageError(`Unknown plan "${plan}".`);
      if (!(limitNames as string[]).includes(name)) throw usageError(`Unknown limit "${name}"; see \`tubekit engine limits list\`.`);
      let parsed: unknown;
      try {
        parsed = parseLimitValue(name as never, value);
      } catch (error) {
        throw usageError((error as Error).message);
      }
      await withLocalEngine(app, (local) => {
        const overrides = local.settings.get<Record<string, Record<string, unknown>>>('limits') ?? {};
        overrides[plan] = { ...overrides[plan], [name]: parsed };
        local.settings.set('limits', overrides);
      });
      app.io.note(`${plan}.${name} = ${parsed === null ? 'unlimited' : String(parsed)}`);
    });
  limits
    .command('reset')
    .description('Remove every override')
    .action(async () => {
      await withLocalEngine(app, (local) => local.settings.delete('limits'));
      app.io.note('Limits reset to the documented defaults.');
    });
}
