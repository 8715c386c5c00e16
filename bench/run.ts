/**
 * `npm run bench`: every measurement side by side in one run, as ratios to a baseline measured
 * in the same run. Feature benchmarks live beside this file and export `…Rows()` functions.
 */
import { cliAndServeRows } from './cli-and-serve.js';
import { printRows, type BenchRow } from './table.js';

type RowSource = () => Promise<BenchRow[]>;

/** Optional suites are loaded by name so a missing one does not stop the others. */
async function optional(module: string, exportName: string): Promise<RowSource | undefined> {
  try {
    const loaded = (await import(module)) as Record<string, RowSource>;
    return loaded[exportName];
  } catch {
    return undefined;
  }
}

const rows: BenchRow[] = [];
const sources: RowSource[] = [cliAndServeRows];
for (const [module, name] of [
  ['./jobs.js', 'jobRows'],
  ['./speech.js', 'speechRows'],
  ['./world.js', 'worldRows'],
  ['./checks.js', 'checkRows'],
  ['./terminated.js', 'terminatedRows'],
  ['./downloads.js', 'downloadRows'],
  ['./alerts.js', 'alertRows'],
] as const) {
  const source = await optional(module, name);
  if (source) sources.push(source);
}
for (const source of sources) {
  try {
    rows.push(...(await source()));
  } catch (error) {
    console.error(`bench suite failed: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
printRows(rows);
