/** The live platform's small text readers: figures, dates, countries, timed text, references. */
import { describe, expect, it } from 'vitest';
import { countryCode, parseAgo, parseClock, parseCount, parseDateText } from '../../../../../src/engine/platform/live/figures.js';
import { parseChannelReference } from '../../../../../src/engine/platform/live/references.js';
import { parseTabPage } from '../../../../../src/engine/platform/live/tab-items.js';
import { parseTimedText } from '../../../../../src/engine/platform/live/timedtext.js';
import { parseWatchNext } from '../../../../../src/engine/platform/live/video-page.js';

describe('figures as the site writes them', () => {
  it('keeps exact counts exact and marks abbreviated ones as estimates', () => {
    expect(parseCount('1.23M subscribers')).toEqual({ value: 1_230_000, exact: false });
    expect(parseCount('8.84k subscribers')).toEqual({ value: 8840, exact: false });
    expect(parseCount('2,530,935,570 views')).toEqual({ value: 2_530_935_570, exact: true });
    expect(parseCount('1 video')).toEqual({ value: 1, exact: true });
    expect(parseCount('1.1B views')).toEqual({ value: 1_100_000_000, exact: false });
    expect(parseCount('No views')).toEqual({ value: 0, exact: true });
    expect(parseCount('Subscribe')).toBeNull();
  });

  it('reads durations, dates, "ago" and country names', () => {
    expect(parseClock('1:07:34')).toBe(4054);
    expect(parseClock('0:59')).toBe(59);
    expect(parseClock('LIVE')).toBeNull();
    expect(parseDateText('Joined Feb 1, 2015')).toBe('2015-02-01');
    expect(parseDateText('28 Jan 2015')).toBe('2015-01-28');
    expect(parseAgo('Streamed 2 hours ago', 10 * 3_600_000)).toBe(8 * 3_600_000);
    expect(parseAgo('13 days ago', 0)).toBe(-13 * 86_400_000);
    expect(countryCode('United Kingdom')).toBe('GB');
    expect(countryCode('United States')).toBe('US');
    expect(countryCode('Canada')).toBe('CA');
    expect(countryCode('Atlantis')).toBeNull();
  });
});

describe('timed text', () => {
  it('reads json3, srv3 and the legacy format', () => {
    expect(parseTimedText('{"events":[{"tStartMs":1500,"dDurationMs":500,"segs":[{"utf8":"hi "},{"utf8":"there"}]},{"tStartMs":2000}]}')).toEqual([{ start: 1.5, end: 2, text: 'hi there' }]);
    expect(parseTimedText('<?xml version="1.0"?><timedtext format="3"><body><p t="1000" d="2500">a <s>b</s> &amp; c</p><p t="4000" d="10"></p></body></timedtext>')).toEqual([
      { start: 1, end: 3.5, text: 'a b & c' },
    ]);
    expect(parseTimedText('<transcript><text start="0.5" dur="1.25">it&amp;#39;s</text></transcript>')).toEqual([{ start: 0.5, end: 1.75, text: "it's" }]);
    expect(parseTimedText('<html>nope</html>')).toBeNull();
    expect(parseTimedText('{broken')).toBeNull();
  });
});

describe('channel references', () => {
  it('knows handles, ids, channel URLs and video URLs, and nothing else', () => {
    expect(parseChannelReference('@Jane')).toEqual({ kind: 'url', url: 'https://www.youtube.com/@Jane' });
    expect(parseChannelReference('UCtubekitFixtureChannel1')).toEqual({ kind: 'channel_id', channelId: 'UCtubekitFixtureChannel1' });
    expect(parseChannelReference('https://m.youtube.com/channel/UCtubekitFixtureChannel1/about')).toEqual({ kind: 'channel_id', channelId: 'UCtubekitFixtureChannel1' });
    expect(parseChannelReference('youtube.com/user/someone')).toEqual({ kind: 'url', url: 'https://www.youtube.com/user/someone' });
    expect(parseChannelReference('youtube.com/c/Some_One')).toEqual({ kind: 'url', url: 'https://www.youtube.com/c/Some_One' });
    // A bare word is not a handle: only "@word" is.
    expect(parseChannelReference('Jane')).toBeNull();
    expect(parseChannelReference('https://www.youtube.com/shorts/abcdefghijk')).toEqual({ kind: 'video', videoId: 'abcdefghijk' });
    expect(parseChannelReference('https://vimeo.com/@jane')).toBeNull();
    expect(parseChannelReference('https://www.youtube.com/feed/trending')).toBeNull();
  });
});

describe('figures a page does not give stay unknown', () => {
  const lockup = (metadataParts: string[], badge: string | null) => ({
    richGridRenderer: {
      contents: [
        {
          richItemRenderer: {
            content: {
              lockupViewModel: {
                contentId: 'fixVideo009',
                contentType: 'LOCKUP_CONTENT_TYPE_VIDEO',
                contentImage: { thumbnailViewModel: { overlays: badge ? [{ thumbnailBottomOverlayViewModel: { badges: [{ thumbnailBadgeViewModel: { text: badge } }] } }] : [] } },
                metadata: {
                  lockupMetadataViewModel: {
                    title: { content: 'A video' },
                    metadata: { contentMetadataViewModel: { metadataRows: [{ metadataParts: metadataParts.map((content) => ({ text: { content } })) }] } },
                  },
                },
              },
            },
          },
        },
      ],
    },
  });

  it('a listing without a readable view text or a length: null, not 0', () => {
    const page = parseTabPage({ contents: lockup(['Views hidden', '3 days ago'], 'LIVE') }, 10 * 86_400_000)!;
    expect(page.items[0]).toMatchObject({ videoId: 'fixVideo009', views: null, durationSeconds: null, publishedMs: 7 * 86_400_000 });
    const read = parseTabPage({ contents: lockup(['1.2K views', '3 days ago'], '12:03') }, 10 * 86_400_000)!;
    expect(read.items[0]).toMatchObject({ views: 1200, durationSeconds: 723 });
  });

  it('the watch page: its comment count when it shows one, a relative date as an estimate', () => {
    const owner = { videoOwnerRenderer: { navigationEndpoint: { browseEndpoint: { browseId: 'UCtubekitFixtureChannel1' } } } };
    const shown = parseWatchNext(
      {
        contents: [
          { videoPrimaryInfoRenderer: { dateText: { simpleText: '17 hours ago' } } },
          owner,
          { commentsEntryPointHeaderRenderer: { commentCount: { simpleText: '2.7K' } } },
        ],
      },
      20 * 3_600_000,
    );
    expect(shown).toMatchObject({ comments: 2700, dateShown: null, agoShownMs: 3 * 3_600_000 });
    const panel = parseWatchNext(
      {
        contents: [owner],
        engagementPanels: [
          { engagementPanelSectionListRenderer: { panelIdentifier: 'engagement-panel-comments-section', header: { engagementPanelTitleHeaderRenderer: { contextualInfo: { runs: [{ text: '412' }] } } } } },
        ],
      },
      0,
    );
    expect(panel).toMatchObject({ comments: 412 });
    // Comments turned off: the page shows no count, so none is made up.
    expect(parseWatchNext({ contents: [owner, { messageRenderer: { text: { runs: [{ text: 'Comments are turned off.' }] } } }] }, 0)).toMatchObject({ comments: null, agoShownMs: null });
  });
});
