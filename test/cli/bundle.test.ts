/**
 * What a local read loads of the built CLI: `tubekit folders list` runs main.js, the in-process
 * service and the workspace feature, and whatever they import statically. The sample world's code
 * (about 150 KB, loaded by `engine.platform()` on first use) must not be part of it: only the
 * world's few small dependency-free modules may be.
 */
import { expect, it } from 'vitest';
import { chunkOf, modulesIn, staticallyLoaded } from '../support/bundle.js';

const SMALL_WORLD_MODULES = ['defaults.js', 'dates.js', 'world-clock.js', 'prng.js', 'terminated/search-text.js'].map((file) => `src/engine/world/${file}`);

it('loads none of the sample world\'s code for folders list', () => {
  const loaded = staticallyLoaded('main.js', chunkOf('src/engine/local-service.js'), chunkOf('src/engine/features/workspace/handlers.js'));
  expect(loaded).toContain(chunkOf('src/engine/engine.js'));
  const world = [...loaded].flatMap(modulesIn).filter((module) => module.startsWith('src/engine/world/'));
  expect(world.filter((module) => !SMALL_WORLD_MODULES.includes(module))).toEqual([]);
  // The world is in the bundle all the same, in a chunk only import() reaches.
  expect(loaded).not.toContain(chunkOf('src/engine/world/sample-world.js'));
});
