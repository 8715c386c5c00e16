/** Channels and videos as the platform shows them. */

export type VideoKind = 'long' | 'short' | 'upcoming';

/** What a channel mostly publishes. */
export type ContentType = 'longform' | 'shorts' | 'mixed';

/**
 * Which of a channel's counts the site gave exactly; the others are parsed from abbreviated text
 * ("1.23M subscribers" → 1,230,000). A count that is 0 and not exact is one the site did not show
 * (a hidden subscriber count).
 */
export interface CountsExact {
  subscribers: boolean;
  total_views: boolean;
  video_count: boolean;
}

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
  /** Which counts are exact, where the platform shows some only abbreviated (the live site); absent: all exact. */
  counts_exact?: CountsExact;
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
  /** Every channel the video lists, its uploader first (a collab lists several); read from the watch page. */
  channel_ids?: string[];
  /** The video's own category, where the platform gives one per video (the live player's microformat). */
  category?: string | null;
  /** ISO 639-1 code of the spoken language (from the auto-generated captions), when a read found it. */
  spoken_language?: string | null;
}

/**
 * Whether a channel exists as the site shows it now. A live read tells a terminated or deleted
 * account apart from a network failure; the sample world knows no such reads.
 */
export type ChannelPresence =
  | { state: 'active'; channel: PlatformChannel }
  | { state: 'terminated'; channel_id: string; reason: string }
  | { state: 'missing'; channel_id: string };
