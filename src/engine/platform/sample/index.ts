/** The deterministic sample world: generator + read API (see sample-world.ts). */
export { SampleWorld, normalizeHandle, type SampleVideo, type ScanFilter } from './sample-world.js';
export type { AdvanceReport } from './advance.js';
export type { CollabAggregate, CollabListing, CollabReader } from './collab-reader.js';
export type { VideoStat } from './videos.js';
export { MAX_ADVANCE_MS, MIN_ADVANCE_MS } from './world-clock.js';
export { transcriptFor, captionSource, type CaptionSource, type Transcript, type TranscriptCue } from './transcripts.js';
export {
  DEFAULT_WORLD_CHANNELS,
  DEFAULT_WORLD_SEED,
  MAX_WORLD_CHANNELS,
  WORLD_ENTITIES,
  WORLD_GENERATOR_VERSION,
  ensureWorld,
  generateWorld,
  readWorldMeta,
  worldTables,
} from './generate.js';
export type { GenerationContext, WorldEntity, WorldParams } from './entity.js';
export type { Awaitable, ChannelVideosOptions, PlatformChannel, PlatformProvider, PlatformVideo } from '../platform.js';
export { sampleIndexSeed } from './index-seed.js';
export { openSampleWorld, regenerateSampleWorld } from './open.js';
export type {
  ChannelCore,
  ChannelGrowthModel,
  ChannelWorldState,
  ContentType,
  DailyStat,
  Deltas,
  Growth,
  VideoKind,
  WorldChannel,
  WorldInfo,
  WorldOptions,
  WorldVideo,
} from './types.js';
