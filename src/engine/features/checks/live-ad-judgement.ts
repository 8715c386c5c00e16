/**
 * The ad verdict from the live site's watch pages, never claiming more than they show:
 * - `true` when a page served ads to this request, or shows the channel's Join (membership) button;
 *   pages whose ads may come from a music rights claim are not counted as the channel's ads;
 * - `false` only when every page read loaded cleanly and said no ads were served — and there were
 *   at least MIN_CLEAN_PAGES of them (one ad-free video is not a channel without ads);
 * - `null` otherwise: pages refused or asking to sign in, pages that did not say, music claims,
 *   too few pages.
 */
import type { AdPage, AdPageOutcome, PageSignal } from '../../platform/page-signals.js';
import type { AdJudgement } from './ad-judgement.js';

/** Clean pages without ads needed to say a channel carries none. */
export const MIN_CLEAN_PAGES = 3;

export interface LiveAdJudgement extends AdJudgement {
  signals: PageSignal[];
}

export function judgeLiveAdPages(pages: readonly AdPage[]): LiveAdJudgement {
  const signals = pages.flatMap((page) => page.signals ?? []);
  const tally = (outcome: AdPageOutcome) => pages.filter((page) => page.outcome === outcome).length;
  const read = pages.length;
  if (read === 0) {
    return {
      monetized: null,
      reason: 'Unknown: the channel has no published longform videos to read.',
      hint: 'Check again once the channel publishes a longform video.',
      signals,
    };
  }
  const ads = tally('ads');
  const join = pages.filter((page) => page.membership).length;
  if (ads > 0 || join > 0) {
    const found = [
      ads > 0 ? `ads served on ${ads} of the ${pages.length} newest longform watch pages read` : '',
      join > 0 ? `the channel's Join (membership) button on ${join === 1 ? 'a watch page' : `${join} watch pages`}` : '',
    ].filter(Boolean);
    return { monetized: true, reason: `Monetized: ${found.join(', and ')}.`, signals };
  }
  const clean = tally('no_ads');
  if (clean === read && read >= MIN_CLEAN_PAGES) {
    return { monetized: false, reason: `Read the ${read} newest longform watch pages cleanly: none served ads or shows a Join button.`, signals };
  }
  const blocked = tally('blocked');
  const claims = tally('music_claim');
  const unclear = tally('unclear');
  const parts = [
    clean > 0 ? `${clean} without ads` : '',
    blocked > 0 ? `${blocked} refused or not playable` : '',
    claims > 0 ? `${claims} with ads that may come from a music rights claim` : '',
    unclear > 0 ? `${unclear} that did not say whether ads were served` : '',
  ].filter(Boolean);
  return { monetized: null, reason: `Unknown: of the ${read} newest longform watch pages, ${parts.join(', ')}.`, hint: hintFor(blocked, claims, unclear, read), signals };
}

function hintFor(blocked: number, claims: number, unclear: number, read: number): string {
  if (blocked > 0) {
    return 'Pages were refused or asked to sign in: check again later; if it keeps happening, slow down (TUBEKIT_PLATFORM_RATE), use a proxy (TUBEKIT_PROXY) or a cookies file (TUBEKIT_COOKIES).';
  }
  if (claims > 0) {
    return "Ads on pages with licensed music may be the music owner's, not the channel's: check again when the channel publishes videos without licensed music.";
  }
  if (unclear > 0) return 'Some pages did not report ads either way: check again later.';
  return `The channel has only ${read} longform video${read === 1 ? '' : 's'} to read; at least ${MIN_CLEAN_PAGES} clean pages are needed to say it carries no ads. Check again once it publishes more.`;
}
