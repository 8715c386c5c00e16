/**
 * The launcher's code cache (src/launcher/load-bundle.ts): written beside the bundle on a first run,
 * used on the next, never applied to another bundle (V8 itself checks only the source's length), and
 * an install it cannot write to simply runs without one. Each run is a fresh node process, as a CLI run is.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';

const LAUNCHER = path.resolve('dist/src/launcher/load-bundle.js');
let dir: string;
let bundle: string;

/** A bundle like the CLI's: CommonJS exporting main(argv), importing a package through the launcher. */
const bundleSource = (answer: string) =>
  `exports.main = async () => { const { valid } = await importPackage('semver'); process.stdout.write('${answer} ' + valid('1.2.3')); return 0; };\n`;

function run(): string {
  const script = `import { loadBundle } from ${JSON.stringify(LAUNCHER)}; process.exitCode = await loadBundle(${JSON.stringify(bundle)}).main([]);`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: process.cwd() });
}

const digestOf = (file: string) => fs.readFileSync(`${file}.cache`).subarray(0, 20).toString('hex');
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

beforeEach(() => {
  // Inside the project, so the bundle's packages resolve as they do from dist/cli.
  dir = fs.mkdtempSync(path.join(path.resolve('dist'), 'bundle-test-'));
  bundle = path.join(dir, 'bundle.cjs');
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

it('writes the cache on a first run and keeps it while the bundle stays the same', () => {
  fs.writeFileSync(bundle, bundleSource('first'));
  expect(run()).toBe('first 1.2.3');
  expect(digestOf(bundle)).toBe(sha1(bundleSource('first')));
  const written = fs.statSync(`${bundle}.cache`).mtimeMs;
  expect(run()).toBe('first 1.2.3');
  expect(fs.statSync(`${bundle}.cache`).mtimeMs).toBe(written);
  expect(fs.readdirSync(dir).sort()).toEqual(['bundle.cjs', 'bundle.cjs.cache']);
});

it('never runs a cache made from another bundle of the same length', () => {
  fs.writeFileSync(bundle, bundleSource('older'));
  run();
  fs.writeFileSync(bundle, bundleSource('newer'));
  expect(run()).toBe('newer 1.2.3');
  expect(digestOf(bundle)).toBe(sha1(bundleSource('newer')));
});

it('runs without a cache where it cannot write one, and leaves nothing behind', () => {
  fs.writeFileSync(bundle, bundleSource('unwritable'));
  // A directory where the cache would go: unreadable as a cache, and no file can be renamed over it.
  fs.mkdirSync(`${bundle}.cache`);
  expect(run()).toBe('unwritable 1.2.3');
  expect(fs.readdirSync(dir).sort()).toEqual(['bundle.cjs', 'bundle.cjs.cache']);
  expect(fs.statSync(`${bundle}.cache`).isDirectory()).toBe(true);
});
