/** What the collab views share: language names, channel summaries, and collab videos as the API shows them. */
import { badRequest } from '../../../core/errors.js';
import type { KnownChannels } from '../../index/channels.js';
import type { CollabListing } from '../../index/collab-graph.js';
import type { EngineIndex } from '../../index/engine-index.js';
import type { PlatformProvider } from '../../platform/platform.js';

const DAY_MS = 86_400_000;

export interface ChannelSummary {
  channel_id: string;
  handle: string | null;
  title: string;
}

export function canonicalLanguage(platform: PlatformProvider, wanted: string, field: string): string {
  const languages = platform.languages();
  const match = languages.find((language) => language.name.toLowerCase() === wanted.toLowerCase() || language.code === wanted.toLowerCase());
  if (!match) {
    throw badRequest(`Invalid request: ${field}: "${wanted}" is not a language of the platform.`, `Use a name such as ${languages.slice(0, 4).map((l) => l.name).join(', ')}.`);
  }
  return match.name;
}

/**
 * Channel summaries and video titles, per index: neither changes while the sample world moves (it
 * updates figures, never names), and a new index is a new instance. A live index's names change
 * with its reads (a channel listed on a collab gets its title when the sweep reads it), so they are
 * kept only until its revision moves. Kept per process rather than per request: a feed page names
 * dozens of channels.
 */
export class CollabNames {
  private static readonly byIndex = new WeakMap<EngineIndex, CollabNames>();
  private readonly channels = new Map<number, ChannelSummary>();
  private readonly titles = new Map<string, string>();

  private constructor(
    private readonly index: EngineIndex,
    private readonly revision: string | undefined,
  ) {}

  static of(index: EngineIndex): CollabNames {
    const revision = index.revision?.();
    let names = CollabNames.byIndex.get(index);
    if (!names || names.revision !== revision) CollabNames.byIndex.set(index, (names = new CollabNames(index, revision)));
    return names;
  }

  async channel(idx: number): Promise<ChannelSummary> {
    let summary = this.channels.get(idx);
    if (!summary) {
      const known: KnownChannels = this.index.channels;
      const channel = await known.byIdx(idx);
      const id = channel ? channel.channel_id : await known.idOf(idx);
      summary = channel ? { channel_id: id, handle: channel.handle, title: channel.title } : { channel_id: id, handle: null, title: id };
      this.channels.set(idx, summary);
    }
    return summary;
  }

  async title(videoId: string): Promise<string> {
    let title = this.titles.get(videoId);
    if (title === undefined) {
      title = (await this.index.channels.videoTitle(videoId)) ?? videoId;
      this.titles.set(videoId, title);
    }
    return title;
  }
}

/** A collab video: host (the channel it was uploaded to), every collaborator, `upcoming` until it publishes. */
export async function collabVideo(index: EngineIndex, listing: CollabListing, nowMs: number) {
  const names = CollabNames.of(index);
  const upcoming = listing.published_ms > nowMs;
  const publishedAt = new Date(listing.published_ms).toISOString().replace('.000Z', 'Z');
  return {
    video_id: listing.video_id,
    title: await names.title(listing.video_id),
    kind: upcoming ? 'upcoming' : listing.kind,
    published_at: publishedAt,
    views: upcoming ? 0 : await index.collabs.views(listing, nowMs),
    upcoming,
    url: listing.kind === 'short' ? `https://www.youtube.com/shorts/${listing.video_id}` : `https://www.youtube.com/watch?v=${listing.video_id}`,
    host: await names.channel(listing.host_idx),
    collaborators: await Promise.all(listing.members.filter((idx) => idx !== listing.host_idx).map((idx) => names.channel(idx))),
  };
}

export { DAY_MS };
