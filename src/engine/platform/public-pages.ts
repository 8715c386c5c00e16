/**
 * Reads of public pages that a live platform offers the channel checks, which judge them
 * (features/checks/): a channel's own words, links and newest videos, and pages outside the site
 * it links to. The sample world knows its channels' truth and offers none of this.
 */
import type { PageSignal } from './page-signals.js';

export interface ChannelPageLink {
  title: string;
  url: string;
}

/** One of the channel's newest longform videos, as its watch page shows it. */
export interface ChannelPageVideo {
  video_id: string;
  /** The watch page: `https://www.youtube.com/watch?v=…`. */
  url: string;
  title: string;
  description: string;
  /** null when neither the watch page nor the listing gave a count. */
  views: number | null;
  /** ISO time, exact or estimated from "3 days ago"; null when the page gives none. */
  published_at: string | null;
  /** The page says the video includes paid promotion. */
  paid_promotion: boolean;
  /**
   * Rows of the description's music section naming who licensed the music
   * ("UMG (on behalf of Example Records); ASCAP, …"); read only when asked (`licensing`).
   */
  licensing: string[];
}

export interface ChannelPages {
  channel_id: string;
  /** The channel's about page. */
  channel_url: string;
  title: string;
  description: string;
  links: ChannelPageLink[];
  /** The channel carries the official artist channel badge. */
  official_artist: boolean;
  /** Newest first; only pages that were read. */
  videos: ChannelPageVideo[];
  /** Newest videos whose pages could not be read (refused, sign-in, not playable): why, and where. */
  unread: PageSignal[];
}

export interface ChannelPagesOptions {
  /** How many of the newest longform videos to read. */
  videos: number;
  /** Also read each video's music section (the watch-next answer): one more request a video. */
  licensing: boolean;
}

/** A page outside the site, read within a size and time limit; never an exception for the page's own failure. */
export type OutsidePage =
  | { ok: true; url: string; status: number; content_type: string; text: string; truncated: boolean }
  | { ok: false; url: string; reason: string };

export interface PublicPageReads {
  /** Null for a channel the site does not show. */
  channelPages(channelId: string, options: ChannelPagesOptions): Promise<ChannelPages | null>;
  /** GET of an http(s) page outside the site (a store the channel links to). */
  outsidePage(url: string): Promise<OutsidePage>;
}
