/**
 * What a local read runs of the built CLI: `tubekit folders list` runs main.js, the in-process
 * service and the workspace feature, and whatever they import statically. The sample world's code
 * (about 150 KB, loaded by `engine.platform()` on first use) must not be part of it: only the
 * world's few small dependency-free modules may be.
 */
import { expect, it } from 'vitest';
import { bundledModules, staticallyReached } from '../support/bundle.js';

const SMALL_WORLD_MODULES = ['defaults.js', 'dates.js', 'world-clock.js', 'prng.js', 'terminated/search-text.js'].map((file) => `dist/src/engine/platform/sample/${file}`);

it('runs none of the sample world\'s code for folders list', () => {
  const reached = staticallyReached('dist/src/cli/main.js', 'dist/src/engine/local-service.js', 'dist/src/engine/features/workspace/handlers.js', 'dist/src/core/routes/workspace.js');
  expect(reached).toContain('dist/src/engine/engine.js');
  const world = [...reached].filter((module) => module.startsWith('dist/src/engine/platform/sample/'));
  expect(world.filter((module) => !SMALL_WORLD_MODULES.includes(module))).toEqual([]);
  // The world is in the bundle all the same, for import() to run.
  expect(bundledModules()).toContain('dist/src/engine/platform/sample/sample-world.js');
});
