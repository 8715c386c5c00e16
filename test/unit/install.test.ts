/**
 * A clean `npm install` on the Node versions the project declares is quiet: no package in the lock
 * file wants a newer Node (EBADENGINE), and every installed peer dependency is in its range.
 */
import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  dev?: boolean;
}

const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockedPackage> };
const declared = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
const installed = Object.entries(lock.packages).filter(([where]) => where.startsWith('node_modules/'));

/** The package a dependency resolves to from `where`, as Node looks it up (nearest node_modules first). */
function resolve(where: string, name: string): LockedPackage | undefined {
  for (let base = where; ; base = base.slice(0, base.lastIndexOf('/node_modules/'))) {
    const found = lock.packages[`${base}/node_modules/${name}`];
    if (found) return found;
    if (!base.includes('/node_modules/')) return lock.packages[`node_modules/${name}`];
  }
}

describe('a clean install', () => {
  it(`has no package that refuses the lowest Node the project declares (${declared})`, () => {
    const lowest = semver.minVersion(declared)!.version;
    const refusing = installed
      .filter(([, pkg]) => pkg.engines && !Array.isArray(pkg.engines) && pkg.engines.node)
      .filter(([, pkg]) => !semver.satisfies(lowest, (pkg.engines as { node: string }).node))
      .map(([where, pkg]) => `${where}@${pkg.version} wants node ${(pkg.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('has every installed peer dependency within its range', () => {
    const conflicts: string[] = [];
    for (const [where, pkg] of installed) {
      for (const [peer, range] of Object.entries(pkg.peerDependencies ?? {})) {
        const found = resolve(where, peer);
        if (!found?.version) continue; // an optional peer nobody installed
        if (!semver.satisfies(found.version, range)) conflicts.push(`${where} wants ${peer}@${range}, found ${found.version}`);
      }
    }
    expect(conflicts).toEqual([]);
  });
});
