/**
 * What a watch page shows beyond the video: ads served to this request, playability, the Join
 * button, the music section — and the ad page a check makes of them. Answers here are small,
 * written in the site's shapes (the real recordings are checked by scripts/replay-check-recordings.mjs).
 */
import { describe, expect, it } from 'vitest';
import { adPageOf, refusalSignal } from '../../../../../src/engine/platform/live/ad-pages.js';
import { platformRefused } from '../../../../../src/engine/platform/live/errors.js';
import { adsServed, joinButton, musicSection, paidPromotion, playabilityOf, trackingParam } from '../../../../../src/engine/platform/live/watch-signals.js';

const URL_A = 'https://www.youtube.com/watch?v=aaaaaaaaaaa';
const CHANNEL = 'UCaaaaaaaaaaaaaaaaaaaaaa';
const csi = (ytAd: string) => ({ responseContext: { serviceTrackingParams: [{ service: 'GFEEDBACK', params: [{ key: 'logged_in', value: '0' }] }, { service: 'CSI', params: [{ key: 'yt_ad', value: ytAd }, { key: 'c', value: 'WEB' }] }] } });
const ok = { playabilityStatus: { status: 'OK' } };
const owner = (channelId: string, join: boolean) => ({
  videoOwnerRenderer: { navigationEndpoint: { browseEndpoint: { browseId: channelId } }, ...(join ? { membershipButton: { timedAnimationButtonRenderer: {} } } : {}) },
});
const nextWith = (...owners: unknown[]) => ({ contents: { twoColumnWatchNextResults: { results: { results: { contents: owners.map((o) => ({ videoSecondaryInfoRenderer: { owner: o } })) } } } } });
const musicNext = (licenses: string | null) => ({
  engagementPanels: [
    {
      engagementPanelSectionListRenderer: {
        content: {
          structuredDescriptionContentRenderer: {
            items: [
              {
                videoDescriptionMusicSectionRenderer: {
                  sectionTitle: { simpleText: 'Music' },
                  carouselLockups: [
                    {
                      carouselLockupRenderer: {
                        infoRows: [
                          { infoRowRenderer: { title: { simpleText: 'SONG' }, defaultMetadata: { simpleText: 'Tide' } } },
                          ...(licenses ? [{ infoRowRenderer: { title: { simpleText: 'LICENSES' }, defaultMetadata: { simpleText: 'Cut…' }, expandedMetadata: { simpleText: licenses } } }] : []),
                        ],
                      },
                    },
                  ],
                },
              },
            ],
          },
        },
      },
    },
  ],
});
const video = { video_id: 'aaaaaaaaaaa', title: 'A', published_at: '2026-11-20T00:00:00Z' };

describe('ads served to this request', () => {
  it('reads yt_ad in the tracking parameters, adPlacements, playerAds and adSlots', () => {
    expect(trackingParam(csi('1'), 'yt_ad')).toBe('1');
    expect(adsServed({ ...csi('1') }, URL_A)).toEqual({ served: true, signals: [expect.objectContaining({ id: 'yt_ad', url: URL_A })] });
    const placed = adsServed({ ...csi('0'), adPlacements: [{ adPlacementRenderer: { config: { adPlacementConfig: { kind: 'AD_PLACEMENT_KIND_END' } } } }] }, URL_A);
    expect(placed.served).toBe(true);
    expect(placed.signals[0]!.evidence).toBe('The player answer schedules 1 ad placement (after the video).');
    expect(adsServed({ playerAds: [{}, {}] }, URL_A).signals.map((signal) => signal.id)).toEqual(['player_ads']);
    expect(adsServed({ adSlots: [{}] }, URL_A).signals.map((signal) => signal.id)).toEqual(['ad_slots']);
  });

  it('says "no ads" only when the answer reports none, and "does not say" when it reports nothing', () => {
    expect(adsServed(csi('0'), URL_A)).toEqual({ served: false, signals: [expect.objectContaining({ id: 'no_ads' })] });
    expect(adsServed({ responseContext: {} }, URL_A)).toEqual({ served: null, signals: [expect.objectContaining({ id: 'no_ad_report' })] });
    expect(adsServed({ ...csi('0'), adPlacements: [] }, URL_A).served).toBe(false);
  });
});

describe('playability, paid promotion, the Join button and the music section', () => {
  it('tells a sign-in page and a members-only video from a page that plays', () => {
    expect(playabilityOf(ok, URL_A)).toEqual({ playable: true });
    expect(playabilityOf({ playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm your age' } }, URL_A)).toMatchObject({ playable: false, membersOnly: false, signal: { id: 'sign_in' } });
    const members = { playabilityStatus: { status: 'UNPLAYABLE', reason: 'Join this channel to get access to members-only content like this video, and other exclusive perks.' } };
    expect(playabilityOf(members, URL_A)).toMatchObject({ playable: false, membersOnly: true, signal: { id: 'members_only' } });
    expect(playabilityOf({ playabilityStatus: { status: 'ERROR', reason: 'Video unavailable' } }, URL_A)).toMatchObject({ signal: { id: 'unplayable', evidence: 'The page does not play (ERROR): "Video unavailable"' } });
    expect(paidPromotion({ paidContentOverlay: { paidContentOverlayRenderer: {} } })).toBe(true);
    expect(paidPromotion(ok)).toBe(false);
  });

  it("counts the Join button of the channel's own owner block only", () => {
    expect(joinButton(nextWith(owner(CHANNEL, true)), CHANNEL)).toBe(true);
    expect(joinButton(nextWith(owner(CHANNEL, false)), CHANNEL)).toBe(false);
    // A collab lists another channel with its own Join button: not this channel's.
    expect(joinButton(nextWith(owner(CHANNEL, false), owner('UCbbbbbbbbbbbbbbbbbbbbbb', true)), CHANNEL)).toBe(false);
  });

  it('reads the music section and its licensing rows, new and old shapes', () => {
    expect(musicSection(musicNext('Example Music Group (on behalf of Tidewater); ASCAP'))).toEqual({ songs: 1, licensing: ['Example Music Group (on behalf of Tidewater); ASCAP'] });
    expect(musicSection(musicNext(null))).toEqual({ songs: 1, licensing: [] });
    const old = { metadataRowContainerRenderer: { rows: [{ metadataRowRenderer: { title: { simpleText: 'Licensed to YouTube by' }, contents: [{ runs: [{ text: 'Example Music Group' }] }] } }] } };
    expect(musicSection(old)).toEqual({ songs: 1, licensing: ['Example Music Group'] });
    expect(musicSection(nextWith(owner(CHANNEL, false)))).toBeNull();
  });
});

describe('the ad page of a check', () => {
  it('is "ads", "no_ads" or "unclear" by the player answer, with the Join button beside', () => {
    expect(adPageOf(video, CHANNEL, { ...ok, ...csi('1') }, nextWith(owner(CHANNEL, true)))).toMatchObject({ outcome: 'ads', membership: true });
    expect(adPageOf(video, CHANNEL, { ...ok, ...csi('0') }, {})).toMatchObject({ outcome: 'no_ads', membership: false });
    expect(adPageOf(video, CHANNEL, ok, {})).toMatchObject({ outcome: 'unclear' });
  });

  it('is "music_claim" when a page with ads lists music, and "no_ads" when it lists music but served none', () => {
    const claimed = adPageOf(video, CHANNEL, { ...ok, ...csi('1') }, musicNext('Example Music Group; BMI'));
    expect(claimed.outcome).toBe('music_claim');
    expect(claimed.signals!.map((signal) => signal.id)).toEqual(['yt_ad', 'music_claim']);
    expect(adPageOf(video, CHANNEL, { ...ok, ...csi('0') }, musicNext('Example Music Group; BMI')).outcome).toBe('no_ads');
  });

  it('is "blocked" when the page does not play; a members-only video shows the channel has memberships', () => {
    const members = adPageOf(video, CHANNEL, { playabilityStatus: { status: 'UNPLAYABLE', reason: 'Members-only content' } }, {});
    expect(members).toMatchObject({ outcome: 'blocked', membership: true, signals: [{ id: 'members_only' }] });
    expect(adPageOf(video, CHANNEL, { playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'Sign in' } }, {})).toMatchObject({ outcome: 'blocked', membership: false });
  });

  it('turns a refusal of the site into a signal, and leaves other failures alone', () => {
    expect(refusalSignal(platformRefused('www.youtube.com', 'bot_check', 3), URL_A)).toMatchObject({ id: 'refused', url: URL_A, evidence: expect.stringContaining('asks to confirm this is not a bot') });
    expect(refusalSignal(new Error('boom'), URL_A)).toBeNull();
  });
});
