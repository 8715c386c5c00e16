/**
 * `npm run bench`: every measurement side by side in one run, as ratios to a baseline measured
 * in the same run. Feature benchmarks live beside this file and export `…Rows()` functions.
 * `npm run bench -- serve cli` (or BENCH_ONLY=serve,cli) runs only the named suites. A row that
 * misses its budget is marked MISSED and the run exits 1.
 */
import { TEST_WORLD_DATE } from '../test/support/world-date.js';
import { printRows, type BenchRow } from './table.js';

// Every benchmark world is the same world on any day (engines here and the binaries they spawn).
process.env.TUBEKIT_WORLD_DATE ||= TEST_WORLD_DATE;

type RowSource = () => Promise<BenchRow[]>;

const suites = [
  ['cli', './cli.js', 'cliRows'],
  ['jq', './jq.js', 'jqRows'],
  ['serve', './serve.js', 'serveRows'],
  ['jobs', './jobs.js', 'jobRows'],
  ['speech', './speech.js', 'speechRows'],
  ['voices', './voices.js', 'voiceRows'],
  ['world', './world.js', 'worldRows'],
  ['checks', './checks.js', 'checkRows'],
  ['terminated', './terminated.js', 'terminatedRows'],
  ['terminated-postgres', './terminated-postgres.js', 'terminatedPostgresRows'],
  ['downloads', './downloads.js', 'downloadRows'],
  ['live-downloads', './live-downloads.js', 'liveDownloadRows'],
  ['analysis', './analysis.js', 'analysisRows'],
  ['alerts', './alerts.js', 'alertRows'],
  ['collabs', './collabs.js', 'collabRows'],
  ['dashboard', './dashboard.js', 'dashboardRows'],
  ['webhooks', './webhooks.js', 'webhookRows'],
  ['mcp', './mcp.js', 'mcpRows'],
  ['fleet', './fleet.js', 'fleetRows'],
  ['live', './live.js', 'liveRows'],
] as const;

/** Optional suites are loaded by name so a missing one does not stop the others. */
async function optional(module: string, exportName: string): Promise<RowSource | undefined> {
  try {
    const loaded = (await import(module)) as Record<string, RowSource>;
    return loaded[exportName];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return undefined;
  }
}

const only = [...process.argv.slice(2), ...(process.env.BENCH_ONLY ?? '').split(',')].map((name) => name.trim()).filter(Boolean);
const unknown = only.filter((name) => !suites.some(([suite]) => suite === name));
if (unknown.length > 0) {
  console.error(`unknown bench suite: ${unknown.join(', ')} (suites: ${suites.map(([suite]) => suite).join(', ')})`);
  process.exit(2);
}

const rows: BenchRow[] = [];
for (const [suite, module, name] of suites) {
  if (only.length > 0 && !only.includes(suite)) continue;
  try {
    const source = await optional(module, name);
    if (source) rows.push(...(await source()));
  } catch (error) {
    console.error(`bench suite ${suite} failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
const missed = printRows(rows);
if (missed > 0) {
  console.error(`\n${missed} row${missed === 1 ? '' : 's'} missed ${missed === 1 ? 'its' : 'their'} budget (marked MISSED).`);
  process.exitCode = 1;
}
