/** What the live platform reads beyond the shared shapes (fields of ours, documented in the README). */
import type { CountsExact, PlatformChannel, PlatformVideo } from '../types.js';

export type { CountsExact };

export interface ChannelLink {
  title: string;
  url: string;
}

export type ChannelBadge = 'verified' | 'artist';

export interface LiveChannel extends PlatformChannel {
  counts_exact: CountsExact;
  links: ChannelLink[];
  badges: ChannelBadge[];
}

/** Whether a video can be watched, from the player's playability (a result, never a crash). */
export type VideoAvailability = 'ok' | 'upcoming' | 'live' | 'members_only' | 'unavailable';

export interface LiveVideo extends PlatformVideo {
  availability: VideoAvailability;
  /** The site's reason when not `ok` ("This video is private."). */
  availability_reason: string | null;
  keywords: string[];
  category: string | null;
  /** Every channel the video lists, its uploader first (a collab lists several). */
  channel_ids: string[];
  /** False when `published_at` is estimated from "3 days ago" (tab listings); true from the microformat. */
  published_exact: boolean;
}
