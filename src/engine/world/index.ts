/** The deterministic sample world: generator + read API (see sample-world.ts). */
export { SampleWorld, normalizeHandle, type SampleVideo } from './sample-world.js';
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
export type {
  Awaitable,
  ChannelVideosOptions,
  PlatformChannel,
  PlatformProvider,
  PlatformVideo,
} from './platform.js';
export type {
  ChannelGrowthModel,
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
