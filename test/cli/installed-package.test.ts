/**
 * The package as a container build installs it (`npm ci --omit=dev`): packed with `npm pack`,
 * unpacked into a temporary directory beside exactly the production dependencies the lock file
 * names (not the dev ones), it migrates a PostgreSQL store — the fleet's driver is a dependency,
 * not something only a development checkout has.
 *
 * The dependencies are linked from this checkout's node_modules rather than downloaded, so the test
 * needs no network; Node runs with --preserve-symlinks, so they resolve their own dependencies from
 * the temporary directory, as an installed copy would.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase } from '../support/postgres.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dir: string;
let installed: string;

/** The top-level packages `npm ci --omit=dev` installs: the lock's entries not marked dev. */
function productionPackages(): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([where, entry]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(where) && !entry.dev && !entry.devOptional)
    .map(([where]) => where.slice('node_modules/'.length))
    .filter((name) => fs.existsSync(path.join(root, 'node_modules', name)));
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-installed-'));
  // The built dist/ as it is (the suite runs after `npm run build`): --ignore-scripts skips the rebuild `prepare` would do.
  const tarball = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  const modules = path.join(dir, 'app', 'node_modules');
  installed = path.join(modules, 'tubekit');
  fs.mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', path.join(dir, tarball), '-C', installed, '--strip-components=1']);
  for (const name of productionPackages()) {
    fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    fs.symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name), 'dir');
  }
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const tubekit = (args: string[]) =>
  execa('node', ['--preserve-symlinks', path.join(installed, 'bin', 'tubekit.js'), ...args], {
    cwd: path.join(dir, 'app'),
    env: { TUBEKIT_DATA_DIR: path.join(dir, 'data'), TUBEKIT_CONFIG_DIR: path.join(dir, 'config'), NO_COLOR: '1', TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '' },
    reject: false,
    timeout: 60_000,
  });

it('lists pg among the dependencies a production install gets, and no dev tool', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8'));
  expect(manifest.dependencies.pg).toBeDefined();
  expect(fs.existsSync(path.join(dir, 'app', 'node_modules', 'pg'))).toBe(true);
  expect(fs.existsSync(path.join(dir, 'app', 'node_modules', 'vitest'))).toBe(false);
});

it('migrates a PostgreSQL store from the installed package', async () => {
  const url = await createTestDatabase({ migrated: false });
  const result = await tubekit(['--json', 'engine', 'migrate', '--store', url]);
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  const report = JSON.parse(result.stdout);
  expect(report.applied.length).toBeGreaterThan(5);
}, 60_000);
