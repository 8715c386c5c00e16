/**
 * What the sample world hands the engine's index: what the hosted service would already know of
 * it — every channel with its statistics history, the collab channels it scanned and the collabs
 * they list, the terminated database, the pre-checked network verdicts. Views over the world's
 * tables, derived on demand as the world's own reads are.
 */
import type { ScannedChannel } from '../../index/channels.js';
import type { IndexSeed } from '../../index/seed.js';
import type { SampleWorld } from './sample-world.js';
import type { ChannelCore } from './types.js';

/** A channel a scan of this seed returned is a world row already; anything else is looked up by id. */
function coreOf(channel: ScannedChannel | string): ChannelCore | string {
  if (typeof channel === 'string') return channel;
  return 'model' in channel && 'state' in channel ? (channel as ChannelCore) : channel.channel_id;
}

/** `edition`: the index's edition; a fleet's world names its own (shared-world.ts), the same on every server. */
export function sampleIndexSeed(world: SampleWorld, edition = world.generatedAt): IndexSeed {
  return {
    edition,
    channels: {
      byId: (channelId) => world.channelById(channelId),
      byIdx: (idx) => world.channelByIndex(idx),
      idOf: (idx) => world.channelIdOf(idx),
      scan: (filter) => world.scanChannels(filter),
      createdSince: (date) => world.channelsCreatedSince(date),
      recentVideoStats: (channel, kind, limit) => world.recentVideoStats(coreOf(channel), kind, limit),
      publishedSince: (channel, sinceMs, kind) => world.publishedSince(coreOf(channel), sinceMs, kind),
      videoTitle: (videoId) => world.videoById(videoId)?.title ?? null,
    },
    statistics: {
      totalsAt: (channel, times) => world.totalsAt(coreOf(channel), times),
      dailyStats: (channelId, fromDate, toDate) => world.dailyStats(channelId, fromDate, toDate),
      growth: (channelId, days) => world.growth(channelId, days),
      deltas: (channelId) => world.deltas(channelId),
    },
    collabs: world.collabs,
    terminated: world.terminatedSeed(),
    prechecked: { edition: world.networks.precheckEdition, verdicts: () => world.networks.prechecked() },
  };
}
