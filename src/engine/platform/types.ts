/** Channels and videos as the platform shows them. */

export type VideoKind = 'long' | 'short' | 'upcoming';

/** What a channel mostly publishes. */
export type ContentType = 'longform' | 'shorts' | 'mixed';

export interface PlatformChannel {
  /** "UC" + 22 chars. */
  channel_id: string;
  /** Display handle including the leading "@", e.g. "@cozycookingjane". */
  handle: string;
  title: string;
  description: string;
  /** Language name ("English"), when known. */
  language: string | null;
  /** ISO 639-1 code ("en"; "fil" for Filipino), when known. */
  language_code: string | null;
  /** ISO 3166-1 alpha-2 country, when known. */
  country: string | null;
  category: string | null;
  /** 'longform' | 'shorts' | 'mixed' when known. */
  content_type: string | null;
  subscribers: number;
  total_views: number;
  video_count: number;
  /** Channel creation date, 'YYYY-MM-DD'. */
  created_at: string;
  thumbnail_url: string;
}

export interface PlatformVideo {
  /** 11 chars [A-Za-z0-9_-]. */
  video_id: string;
  channel_id: string;
  kind: VideoKind;
  title: string;
  views: number;
  likes: number;
  comments: number;
  /** 0 for upcoming videos. */
  duration_seconds: number;
  /** ISO timestamp ("2026-11-20T14:03:12Z"); in the future for upcoming videos. */
  published_at: string;
  thumbnail_url: string;
}

/**
 * Whether a channel exists as the site shows it now. A live read tells a terminated or deleted
 * account apart from a network failure; the sample world knows no such reads.
 */
export type ChannelPresence =
  | { state: 'active'; channel: PlatformChannel }
  | { state: 'terminated'; channel_id: string; reason: string }
  | { state: 'missing'; channel_id: string };
