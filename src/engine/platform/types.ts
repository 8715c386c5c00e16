/** Channels and videos as the platform shows them. */

export type VideoKind = 'long' | 'short' | 'upcoming';

/** What a channel mostly publishes. */
export type ContentType = 'longform' | 'shorts' | 'mixed';

/**
 * Which of a channel's counts the site gave exactly; the others are parsed from abbreviated text
 * ("1.23M subscribers" → 1,230,000). A count the site did not show is null, and not exact.
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
  /** null: the site did not show it (a hidden subscriber count) or showed a text that could not be read. */
  subscribers: number | null;
  total_views: number | null;
  video_count: number | null;
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
  /** null: the site did not show it (or showed a text that could not be read). */
  views: number | null;
  likes: number | null;
  comments: number | null;
  /** 0 for upcoming videos; null when the site did not give it (a Shorts listing). */
  duration_seconds: number | null;
  /** ISO timestamp ("2026-11-20T14:03:12Z"); in the future for upcoming videos; null when unknown. */
  published_at: string | null;
  thumbnail_url: string;
  /** Every channel the video lists, its uploader first (a collab lists several); read from the watch page. */
  channel_ids?: string[];
  /** The video's own category, where the platform gives one per video (the live player's microformat). */
  category?: string | null;
  /** ISO 639-1 code of the spoken language (from the auto-generated captions), when a read found it. */
  spoken_language?: string | null;
  /** False when `published_at` is estimated from a relative date ("3 days ago"); absent: exact. */
  published_exact?: boolean;
}

/**
 * Whether a channel exists as the site shows it now. A live read tells a terminated or deleted
 * account apart from a network failure; the sample world knows no such reads.
 */
export type ChannelPresence =
  | { state: 'active'; channel: PlatformChannel }
  | { state: 'terminated'; channel_id: string; reason: string }
  | { state: 'missing'; channel_id: string };
