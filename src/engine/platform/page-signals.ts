/** What reads of a channel's pages find: ads on its watch pages, and what it sells elsewhere. */
import type { EXTERNAL_METHODS } from '../../core/schemas/research.js';

export type AdPageOutcome = 'ads' | 'no_ads' | 'blocked';

/** One watch page as a live read saw it. */
export interface AdPage {
  video_id: string;
  title: string;
  published_at: string;
  outcome: AdPageOutcome;
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
