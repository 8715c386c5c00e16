/** Benchmarks run on the sample platform and read its world directly, as the world's own tests do. */
import type { Engine } from '../src/engine/engine.js';
import { SampleWorld } from '../src/engine/platform/sample/index.js';
import type { WorldSettings } from '../src/engine/platform/simulation.js';

/** The engine's sample world, rebuilt first with `reseed` when given. */
export async function benchWorld(engine: Engine, reseed?: WorldSettings): Promise<SampleWorld> {
  const platform = reseed ? await engine.reseedWorld(reseed) : await engine.platform();
  if (!(platform instanceof SampleWorld)) throw new Error(`benchmarks need the sample platform, not ${platform.source}`);
  return platform;
}
