/** Opening the sample platform for a data dir: the world (generated on first use) and the index seed it brings. */
import type Database from 'better-sqlite3';
import type { IndexSeed } from '../../index/seed.js';
import type { WorldSettings } from '../simulation.js';
import { sampleIndexSeed } from './index-seed.js';
import { SampleWorld } from './sample-world.js';

export interface OpenedSampleWorld {
  platform: SampleWorld;
  seed: IndexSeed;
}

const opened = (world: SampleWorld): OpenedSampleWorld => ({ platform: world, seed: sampleIndexSeed(world) });

/** The world with these parameters: the stored one, or generated if missing or made with others. */
export function openSampleWorld(db: Database.Database, settings: WorldSettings): OpenedSampleWorld {
  return opened(SampleWorld.ensure(db, settings));
}

/** A world rebuilt from scratch with these parameters (`tubekit engine seed`). */
export function regenerateSampleWorld(db: Database.Database, settings: WorldSettings): OpenedSampleWorld {
  return opened(SampleWorld.regenerate(db, settings));
}
