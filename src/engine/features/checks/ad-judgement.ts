/** What an ad-monetization check concluded about a channel, on either platform. */
import type { PageSignal } from '../../platform/page-signals.js';

export interface AdJudgement {
  monetized: boolean | null;
  reason: string;
  hint?: string;
  /** What the pages showed (live platform only). */
  signals?: PageSignal[];
}
