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

/** Channel summaries by world index, looked up once per request. */
export class ChannelNames {
  private readonly known = new Map<number, ChannelSummary>();

  constructor(private readonly world: SampleWorld) {}

  of(idx: number): ChannelSummary {
    let summary = this.known.get(idx);
    if (!summary) {
      const channel = this.world.channelByIndex(idx);
      summary = channel
        ? { channel_id: channel.channel_id, handle: channel.handle, title: channel.title }
        : { channel_id: this.world.channelIdOf(idx), handle: null, title: this.world.channelIdOf(idx) };
      this.known.set(idx, summary);
    }
    return summary;
  }
}

/** A collab video: host (the channel it was uploaded to), every collaborator, `upcoming` until it publishes. */
export function collabVideo(world: SampleWorld, names: ChannelNames, listing: CollabListing, nowMs: number) {
  const video = world.videoById(listing.video_id);
  const upcoming = listing.published_ms > nowMs;
  const publishedAt = new Date(listing.published_ms).toISOString().replace('.000Z', 'Z');
  return {
    video_id: listing.video_id,
    title: video?.title ?? listing.video_id,
    kind: upcoming ? 'upcoming' : listing.kind,
    published_at: publishedAt,
    views: upcoming ? 0 : world.collabs.views(listing, nowMs),
    upcoming,
    url: listing.kind === 'short' ? `https://www.youtube.com/shorts/${listing.video_id}` : `https://www.youtube.com/watch?v=${listing.video_id}`,
    host: names.of(listing.host_idx),
    collaborators: listing.members.filter((idx) => idx !== listing.host_idx).map((idx) => names.of(idx)),
  };
}

export { DAY_MS };
