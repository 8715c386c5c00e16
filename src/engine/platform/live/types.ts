/** What the live platform reads beyond the shared shapes (fields of ours, documented in the README). */
import type { PlatformChannel, PlatformVideo } from '../types.js';

/** Which of a channel's counts the site gave exactly (else they are parsed from "1.23M"-style text). */
export interface CountsExact {
  subscribers: boolean;
  total_views: boolean;
  video_count: boolean;
}

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
