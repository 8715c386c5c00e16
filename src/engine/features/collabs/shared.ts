/** What the collab views share: language names, channel summaries, and collab videos as the API shows them. */
import { badRequest } from '../../../core/errors.js';
import type { CollabListing, SampleWorld } from '../../world/index.js';

const DAY_MS = 86_400_000;

export interface ChannelSummary {
  channel_id: string;
  handle: string | null;
  title: string;
}

export function canonicalLanguage(world: SampleWorld, wanted: string, field: string): string {
  const languages = world.languages();
  const match = languages.find((language) => language.name.toLowerCase() === wanted.toLowerCase() || language.code === wanted.toLowerCase());
  if (!match) {
    throw badRequest(`Invalid request: ${field}: "${wanted}" is not a language of the platform.`, `Use a name such as ${languages.slice(0, 4).map((l) => l.name).join(', ')}.`);
  }
  return match.name;
}

/**
 * Channel summaries and video titles, by world: neither changes while the world moves (advance
 * updates figures, never names), and a new world is a new instance. Looked up once each per
 * process rather than once per request: a feed page names dozens of channels.
 */
export class CollabNames {
  private static readonly byWorld = new WeakMap<SampleWorld, CollabNames>();
  private readonly channels = new Map<number, ChannelSummary>();
  private readonly titles = new Map<string, string>();

  private constructor(private readonly world: SampleWorld) {}

  static forWorld(world: SampleWorld): CollabNames {
    let names = CollabNames.byWorld.get(world);
    if (!names) CollabNames.byWorld.set(world, (names = new CollabNames(world)));
    return names;
  }

  channel(idx: number): ChannelSummary {
    let summary = this.channels.get(idx);
    if (!summary) {
      const channel = this.world.channelByIndex(idx);
      if (!channel) return { channel_id: this.world.channelIdOf(idx), handle: null, title: this.world.channelIdOf(idx) };
      summary = { channel_id: channel.channel_id, handle: channel.handle, title: channel.title };
      this.channels.set(idx, summary);
    }
    return summary;
  }

  title(videoId: string): string {
    let title = this.titles.get(videoId);
    if (title === undefined) {
      const video = this.world.videoById(videoId);
      if (!video) return videoId;
      this.titles.set(videoId, (title = video.title));
    }
    return title;
  }
}

/** A collab video: host (the channel it was uploaded to), every collaborator, `upcoming` until it publishes. */
export function collabVideo(world: SampleWorld, listing: CollabListing, nowMs: number) {
  const names = CollabNames.forWorld(world);
  const upcoming = listing.published_ms > nowMs;
  const publishedAt = new Date(listing.published_ms).toISOString().replace('.000Z', 'Z');
  return {
    video_id: listing.video_id,
    title: names.title(listing.video_id),
    kind: upcoming ? 'upcoming' : listing.kind,
    published_at: publishedAt,
    views: upcoming ? 0 : world.collabs.views(listing, nowMs),
    upcoming,
    url: listing.kind === 'short' ? `https://www.youtube.com/shorts/${listing.video_id}` : `https://www.youtube.com/watch?v=${listing.video_id}`,
    host: names.channel(listing.host_idx),
    collaborators: listing.members.filter((idx) => idx !== listing.host_idx).map((idx) => names.channel(idx)),
  };
}

export { DAY_MS };
