import type { EngineContext } from '../context.js';
import { SampleWorld } from '../platform/sample/index.js';

/**
 * The sample world behind `engine.platform()`, for features that need more than the platform's
 * per-channel reads (alerts scan every channel; collabs read the world's collab listings).
 */
export async function sampleWorldOf(engine: EngineContext): Promise<SampleWorld> {
  const platform = await engine.platform();
  if (!(platform instanceof SampleWorld)) throw new Error('alerts and collabs need the sample world as the platform');
  return platform;
}
