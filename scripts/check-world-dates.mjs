#!/usr/bin/env node
/**
 * The sample world's contract suites under seven consecutive reference dates (the pinned test date
 * and the six after it), in-process on SQLite: a test that expects content the generator makes on
 * some days only fails here, not on the calendar day CI happens to run.
 *
 *   node scripts/check-world-dates.mjs [--days N] [--first-day K] [vitest file filters…]
 *
 * `npm test` runs days 1 to 6 after the whole suite, which ran on day 0 (the pinned date) already.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
/** A whole-number option's value (removed from the file filters), or its default. */
function wholeOption(name, fallback, min) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  args.splice(at, 2);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} takes a whole number, ${min} or more`);
  return value;
}
if (args.includes('--help') || args.includes('-h')) {
  console.log('usage: node scripts/check-world-dates.mjs [--days N] [--first-day K] [vitest file filters…]');
  process.exit(0);
}
const firstDay = wholeOption('--first-day', 0, 0);
const days = wholeOption('--days', 7 - firstDay, 1);

// The one pinned date lives in the test support; this script only counts on from it.
const source = fs.readFileSync(path.join(root, 'test/support/world-date.ts'), 'utf8');
const pinned = /TEST_WORLD_DATE = '(\d{4}-\d{2}-\d{2})'/.exec(source)?.[1];
if (!pinned) throw new Error('test/support/world-date.ts: TEST_WORLD_DATE not found');

// Suites that never open the sample world (speech, and job bookkeeping with a job kind of their
// own): their answers cannot depend on its date. A suite that starts reading the world leaves this list.
const WORLDLESS = new Set(['generation', 'task-jobs', 'text-field-limits', 'voices-alt', 'voices-elevenlabs', 'voices-minimax', 'voices-piper', 'voices-stealth']);

// Suites of the sample world's content (live-platform suites read fixture sites, not the world).
const contract = fs
  .readdirSync(path.join(root, 'test/contract'))
  .filter((name) => name.endsWith('.test.ts') && !/(^|-)live[-.]/.test(name) && !WORLDLESS.has(name.replace(/\.test\.ts$/, '')))
  .map((name) => `test/contract/${name}`);
const unknown = args.find((arg) => arg.startsWith('-'));
if (unknown) {
  console.error(`Unknown option ${unknown}; see --help.`);
  process.exit(2);
}
const files = args.length > 0 ? args : contract;

const failed = [];
const totals = { passed: 0, failed: 0, skipped: 0 };
for (let day = firstDay; day < firstDay + days; day++) {
  const date = new Date(Date.parse(`${pinned}T00:00:00Z`) + day * 86_400_000).toISOString().slice(0, 10);
  process.stdout.write(`\n=== sample world of ${date} ===\n`);
  const run = spawnSync('npx', ['vitest', 'run', '--reporter=dot', '--reporter=./test/support/summary-reporter.ts', ...files], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, TUBEKIT_WORLD_DATE: date, TUBEKIT_TEST_VARIANTS: 'embedded-sqlite' },
  });
  process.stdout.write(run.stdout ?? '');
  const counts = /tests: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(run.stdout ?? '');
  if (counts) {
    totals.passed += Number(counts[1]);
    totals.failed += Number(counts[2]);
    totals.skipped += Number(counts[3]);
  }
  if (run.status !== 0 || !counts) failed.push(date);
}
if (failed.length > 0) console.error(`\nThe sample world's suites failed for reference dates ${failed.join(', ')}.`);
else console.log(`\nThe sample world's suites passed for ${days} reference dates from day ${firstDay} after ${pinned}.`);
console.log(`world dates: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failed.length > 0 ? 1 : 0);
