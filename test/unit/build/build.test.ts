/**
 * `npm run build` (scripts/build.mjs) in a small project of its own: tsc and the bundle step write
 * a temporary directory while dist/ keeps the previous build whole, and the finished build is
 * renamed into place; a failed build leaves dist/ as it was.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceDirectory } from '../../../scripts/replace-directory.mjs';

const BUILD = path.resolve('scripts/build.mjs');
let project: string;
const file = (name: string) => path.join(project, name);

beforeEach(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-build-test-'));
  fs.mkdirSync(file('src'));
  fs.mkdirSync(file('scripts'));
  fs.writeFileSync(file('tsconfig.json'), JSON.stringify({ compilerOptions: { outDir: 'dist', rootDir: '.', module: 'NodeNext', target: 'ES2022' }, include: ['src/**/*.ts'] }));
  fs.writeFileSync(file('src/main.ts'), 'export const version: string = "new";\n');
  // The bundle step of this project notes what dist/ held while the build ran.
  fs.writeFileSync(
    file('scripts/bundle-cli.mjs'),
    `import fs from 'node:fs';
const out = process.argv[2];
fs.writeFileSync('seen-during-build.txt', fs.readFileSync('dist/cli/tubekit.cjs', 'utf8'));
if (process.env.FAIL_BUNDLE) process.exit(7);
fs.mkdirSync(out + '/cli', { recursive: true });
fs.writeFileSync(out + '/cli/tubekit.cjs', 'new bundle of ' + fs.readFileSync(out + '/src/main.js', 'utf8').length + ' bytes');
`,
  );
  fs.mkdirSync(file('dist/cli'), { recursive: true });
  fs.writeFileSync(file('dist/cli/tubekit.cjs'), 'old bundle');
  fs.writeFileSync(file('dist/stale.js'), 'from an older build');
});
afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

const build = (env: Record<string, string> = {}) => {
  try {
    execFileSync(process.execPath, [BUILD], { cwd: project, env: { ...process.env, ...env }, stdio: 'pipe' });
    return 0;
  } catch (error) {
    return (error as { status: number }).status;
  }
};

describe('npm run build', () => {
  it('keeps the previous dist/ whole while it builds, then swaps the new build in', () => {
    expect(build()).toBe(0);
    expect(fs.readFileSync(file('seen-during-build.txt'), 'utf8')).toBe('old bundle');
    expect(fs.readFileSync(file('dist/cli/tubekit.cjs'), 'utf8')).toMatch(/^new bundle of \d+ bytes$/);
    expect(fs.readFileSync(file('dist/src/main.js'), 'utf8')).toContain('"new"');
    // A fresh directory: nothing of an older build survives, and nothing is left beside it.
    expect(fs.existsSync(file('dist/stale.js'))).toBe(false);
    expect(fs.readdirSync(project).filter((entry) => entry.startsWith('dist'))).toEqual(['dist']);
  });

  it('leaves dist/ as it was when a step fails, and removes its temporary directory', () => {
    expect(build({ FAIL_BUNDLE: '1' })).toBe(7);
    expect(fs.readFileSync(file('dist/cli/tubekit.cjs'), 'utf8')).toBe('old bundle');
    expect(fs.readdirSync(project).filter((entry) => entry.startsWith('dist'))).toEqual(['dist']);
  });
});

describe('replaceDirectory', () => {
  it('puts the new directory in place of the old one, or where there was none', () => {
    fs.mkdirSync(file('next'));
    fs.writeFileSync(file('next/a'), 'new');
    replaceDirectory(file('next'), file('target'));
    expect(fs.readFileSync(file('target/a'), 'utf8')).toBe('new');
    fs.mkdirSync(file('next'));
    fs.writeFileSync(file('next/b'), 'newer');
    replaceDirectory(file('next'), file('target'));
    expect(fs.readdirSync(file('target'))).toEqual(['b']);
    expect(fs.existsSync(file('next'))).toBe(false);
  });

  it('puts the old directory back when the new one cannot be moved in', () => {
    fs.mkdirSync(file('target'));
    fs.writeFileSync(file('target/a'), 'old');
    expect(() => replaceDirectory(file('missing'), file('target'))).toThrow(/ENOENT/);
    expect(fs.readFileSync(file('target/a'), 'utf8')).toBe('old');
  });
});
