/** What reads of a channel's pages find: ads on its watch pages, and what it sells elsewhere. */
import type { EXTERNAL_METHODS } from '../../core/schemas/research.js';

/**
 * One thing a read of public pages saw, and where: what a live verdict is based on. `id` names the
 * kind of signal (`yt_ad`, `ad_placements`, `join_button`, `music_claim`, `art_track`, …).
 */
export interface PageSignal {
  id: string;
  evidence: string;
  url: string;
}

/**
 * `ads`: ads served on the page; `no_ads`: read cleanly, none; `blocked`: the read was refused or
 * the page would not play (sign-in, members only). The live platform also tells `music_claim` (ads
 * served, but the page lists licensed music whose rights owner may be the one running them) and
 * `unclear` (the page loaded but did not say whether ads were served).
 */
export type AdPageOutcome = 'ads' | 'no_ads' | 'blocked' | 'music_claim' | 'unclear';

/** One watch page as a live read saw it. */
export interface AdPage {
  video_id: string;
  title: string;
  /** ISO time; null when no read gave one. */
  published_at: string | null;
  outcome: AdPageOutcome;
  /** The page shows the channel's Join (membership) button (live platform). */
  membership?: boolean;
  /** What the read saw on the page (live platform; the sample world's pages carry none). */
  signals?: PageSignal[];
}

export type ExternalMethod = (typeof EXTERNAL_METHODS)[number];

export interface ExternalMethodEvidence {
  method: ExternalMethod;
  evidence: string;
  source_url: string;
}

export interface ExternalProduct {
  name: string;
  method: ExternalMethod;
  price: number;
  currency: string;
  billing: 'one_time' | 'monthly';
  url: string;
}

export interface ExternalFunnel {
  /** Where viewers are sent from, most used first. */
  entry_points: string[];
  /** Share of the newest videos whose description links out to a store or offer. */
  description_link_share: number;
  /** A link-in-bio page gathering the offers, when the channel uses one. */
  link_hub_url: string | null;
  email_capture: boolean;
  est_monthly_link_clicks: number;
  est_click_through_rate: number;
  est_conversion_rate: number;
}

export interface ExternalMonetizationTruth {
  methods: ExternalMethodEvidence[];
  products: ExternalProduct[];
  store_urls: string[];
  funnel: ExternalFunnel | null;
}
