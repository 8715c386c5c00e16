/**
 * The index over a platform's seed (the sample world): the seed answers at once from memory, the
 * index's interfaces are asynchronous (a fleet's live index is in its database), so each read is
 * the seed's answer, resolved. A scan hands the seed's rows over in pages, so a million channels
 * cost a few thousand awaits, not a million.
 */
import type { KnownChannels, ScannedChannel, ScanFilter, SeedChannels } from './channels.js';
import type { CollabGraph, SeedCollabs } from './collab-graph.js';
import type { SeedStatistics, StatisticsHistory } from './statistics.js';

/** Rows per page of a seed's scan. */
export const SEED_SCAN_PAGE = 1_000;

export function seedChannels(seed: SeedChannels): KnownChannels {
  return {
    byId: async (channelId) => seed.byId(channelId),
    byIdx: async (idx) => seed.byIdx(idx),
    idOf: async (idx) => seed.idOf(idx),
    scan: (filter?: ScanFilter) => pages(seed.scan(filter)),
    createdSince: async (date) => seed.createdSince(date),
    recentVideoStats: async (channel, kind, limit) => seed.recentVideoStats(channel, kind, limit),
    publishedSince: async (channel, sinceMs, kind) => seed.publishedSince(channel, sinceMs, kind),
    videoTitle: async (videoId) => seed.videoTitle(videoId),
  };
}

async function* pages(rows: IterableIterator<ScannedChannel>): AsyncIterable<ScannedChannel[]> {
  let page: ScannedChannel[] = [];
  for (const row of rows) {
    page.push(row);
    if (page.length === SEED_SCAN_PAGE) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

export function seedStatistics(seed: SeedStatistics): StatisticsHistory {
  return {
    totalsAt: async (channel, times) => seed.totalsAt(channel, times),
    dailyStats: async (channelId, fromDate, toDate) => seed.dailyStats(channelId, fromDate, toDate),
    growth: async (channelId, days) => seed.growth(channelId, days),
    deltas: async (channelId) => seed.deltas(channelId),
  };
}

export function seedCollabs(seed: SeedCollabs): CollabGraph {
  return {
    involving: async (channelIdx, nowMs) => seed.involving(channelIdx, nowMs),
    knownPublished: async (fromMs, toMs) => seed.knownPublished(fromMs, toMs),
    isChecked: async (channelIdx, scanned, nowMs) => seed.isChecked(channelIdx, scanned, nowMs),
    checkedChannels: async (nowMs) => seed.checkedChannels(nowMs),
    snapshot: async (asOfMs) => seed.snapshot(asOfMs),
    views: async (listing, nowMs) => seed.views(listing, nowMs),
  };
}
