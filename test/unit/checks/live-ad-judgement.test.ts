/** The live ad verdict from the pages a check read: never more than they show. */
import { describe, expect, it } from 'vitest';
import { judgeLiveAdPages, MIN_CLEAN_PAGES } from '../../../src/engine/features/checks/live-ad-judgement.js';
import type { AdPage, AdPageOutcome } from '../../../src/engine/platform/page-signals.js';

const page = (outcome: AdPageOutcome, extra: Partial<AdPage> = {}, n = 0): AdPage => ({
  video_id: `video${String(n).padStart(6, '0')}`,
  title: `Video ${n}`,
  published_at: '2026-11-20T00:00:00Z',
  outcome,
  signals: [{ id: outcome, evidence: `${outcome} seen`, url: `https://www.youtube.com/watch?v=video${n}` }],
  ...extra,
});
const pages = (...outcomes: AdPageOutcome[]) => outcomes.map((outcome, n) => page(outcome, {}, n));

describe('the live ad verdict', () => {
  it('is true on one page with ads, whatever the others show', () => {
    const judgement = judgeLiveAdPages(pages('no_ads', 'blocked', 'ads', 'unclear', 'music_claim'));
    expect(judgement).toMatchObject({ monetized: true, reason: 'Monetized: ads served on 1 of the 5 newest longform watch pages read.' });
    expect(judgement.hint).toBeUndefined();
    expect(judgement.signals).toHaveLength(5);
  });

  it('is true on a Join button alone', () => {
    expect(judgeLiveAdPages([page('blocked', { membership: true }), ...pages('no_ads', 'no_ads')]).monetized).toBe(true);
  });

  it(`is false only on at least ${MIN_CLEAN_PAGES} pages, all read cleanly without ads`, () => {
    expect(judgeLiveAdPages(pages('no_ads', 'no_ads', 'no_ads')).monetized).toBe(false);
    expect(judgeLiveAdPages(pages('no_ads', 'no_ads')).monetized).toBeNull();
    for (const other of ['blocked', 'music_claim', 'unclear'] as const) {
      expect(judgeLiveAdPages(pages('no_ads', 'no_ads', 'no_ads', 'no_ads', other)).monetized, other).toBeNull();
    }
  });

  it('never counts a music claim as the channel’s ads', () => {
    const judgement = judgeLiveAdPages(pages('music_claim', 'music_claim', 'music_claim'));
    expect(judgement.monetized).toBeNull();
    expect(judgement.hint).toMatch(/music owner's/);
  });

  it('says why it is unknown, and what to do', () => {
    expect(judgeLiveAdPages([])).toMatchObject({ monetized: null, reason: 'Unknown: the channel has no published longform videos to read.' });
    const refused = judgeLiveAdPages(pages('blocked', 'blocked', 'unclear'));
    expect(refused.reason).toBe('Unknown: of the 3 newest longform watch pages, 2 refused or not playable, 1 that did not say whether ads were served.');
    expect(refused.hint).toMatch(/TUBEKIT_PLATFORM_RATE.*TUBEKIT_PROXY.*TUBEKIT_COOKIES/);
    expect(judgeLiveAdPages(pages('unclear', 'no_ads', 'no_ads')).hint).toBe('Some pages did not report ads either way: check again later.');
  });
});
