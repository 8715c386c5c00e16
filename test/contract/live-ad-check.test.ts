/**
 * The ad-monetization check on a live data dir, on both engines: verdicts from what the watch pages
 * of a made-up site show (test/support/live-check-site.ts), each answer with the signals it rests
 * on; `previous` as on the sample platform; terminated and unknown channels.
 */
import { beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/core/service.js';
import { describeEachEngineOnLive } from '../support/live-engines.js';
import { missingChannel, siteExchanges, terminatedChannel, type SiteChannel } from '../support/live-check-site.js';
import { failure } from '../support/engines.js';

const ADS = 'UCliveChecksAdsChannel01';
const CLEAN = 'UCliveChecksCleanChann01';
const GATED = 'UCliveChecksGatedChann01';
const MUSIC = 'UCliveChecksMusicChann01';
const FEW = 'UCliveChecksFewVideos001';
const JOIN = 'UCliveChecksJoinButton01';
const TERMINATED = 'UCliveChecksTerminated01';
const MISSING = 'UCliveChecksMissingChan1';

const song = { song: 'Harbour Lights', artist: 'The Example Tides', licenses: 'Example Music Group (on behalf of Tidewater Records); ASCAP' };
const CHANNELS: SiteChannel[] = [
  {
    id: ADS,
    title: 'Studio Ads',
    handle: '@studioads',
    videos: [
      { id: 'adsVideo001', title: 'Ads on the newest', ago: '1 day ago', ads: 'yt_ad' },
      { id: 'adsVideo002', title: 'Placements', ago: '3 days ago', ads: 'placements' },
      { id: 'adsVideo003', title: 'Player ads', ago: '1 week ago', ads: 'player_ads' },
      { id: 'adsVideo004', title: 'No ads here', ago: '2 weeks ago', ads: 'none' },
      { id: 'adsVideo005', title: 'None either', ago: '3 weeks ago', ads: 'none' },
      { id: 'adsVideo006', title: 'Too old to read', ago: '1 month ago', ads: 'yt_ad' },
    ],
  },
  {
    id: CLEAN,
    title: 'Clean Pages',
    handle: '@cleanpages',
    videos: ['1 day ago', '4 days ago', '1 week ago', '2 weeks ago'].map((ago, index) => ({ id: `clnVideo00${index + 1}`, title: `Clean ${index + 1}`, ago, ads: 'none' as const })),
  },
  {
    id: GATED,
    title: 'Gated Pages',
    handle: '@gatedpages',
    videos: [
      { id: 'gtdVideo001', title: 'Fine', ago: '1 day ago', ads: 'none' },
      { id: 'gtdVideo002', title: 'Age gated', ago: '2 days ago', playability: 'age_gate' },
      { id: 'gtdVideo003', title: 'Fine too', ago: '3 days ago', ads: 'none' },
    ],
  },
  {
    id: MUSIC,
    title: 'Music Covers',
    handle: '@musiccovers',
    videos: ['1 day ago', '2 days ago', '3 days ago'].map((ago, index) => ({ id: `musVideo00${index + 1}`, title: `Cover ${index + 1}`, ago, ads: 'yt_ad' as const, music: [song] })),
  },
  {
    id: FEW,
    title: 'Few Videos',
    handle: '@fewvideos',
    videos: [
      { id: 'fewVideo001', title: 'One', ago: '1 day ago', ads: 'none' },
      { id: 'fewVideo002', title: 'Two', ago: '5 days ago', ads: 'none' },
    ],
  },
  {
    id: JOIN,
    title: 'Join Us',
    handle: '@joinus',
    videos: [
      { id: 'joinVideo01', title: 'No ads, but members', ago: '1 day ago', ads: 'none', join: true },
      { id: 'joinVideo02', title: 'Two', ago: '2 days ago', ads: 'none' },
      { id: 'joinVideo03', title: 'Three', ago: '3 days ago', ads: 'none' },
    ],
  },
];

const watch = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

describeEachEngineOnLive(
  'ad-monetization check',
  () => [...siteExchanges(CHANNELS), terminatedChannel(TERMINATED), missingChannel(MISSING)],
  (get) => {
    let user: Service;
    beforeAll(() => {
      user = get().as('starter');
    });

    it('answers true on ads served to a read page, with the signals of each of the 5 newest pages', async () => {
      const body = await user.call('monetization.ads', { channel_id: ADS });
      expect(body).toMatchObject({ success: true, channel_id: ADS, monetized: true, previous: null });
      expect(body.reason).toBe('Monetized: ads served on 3 of the 5 newest longform watch pages read.');
      expect(body).not.toHaveProperty('hint');
      expect(body.signals!.map((signal) => [signal.id, signal.url])).toEqual([
        ['yt_ad', watch('adsVideo001')],
        ['ad_placements', watch('adsVideo002')],
        ['player_ads', watch('adsVideo003')],
        ['no_ads', watch('adsVideo004')],
        ['no_ads', watch('adsVideo005')],
      ]);
      expect(body.signals![1]!.evidence).toBe('The player answer schedules 2 ad placements (before the video, during the video).');
      // Only the five newest pages were asked for.
      expect(get().server.seen.some((request) => request.key.videoId === 'adsVideo006')).toBe(false);
    });

    it('answers false only when every page read cleanly without ads, and keeps the verdict for previous', async () => {
      const first = await user.call('monetization.ads', { channel_id: CLEAN });
      expect(first).toMatchObject({ monetized: false, previous: null });
      expect(first.reason).toBe('Read the 4 newest longform watch pages cleanly: none served ads or shows a Join button.');
      expect(first.signals).toHaveLength(4);
      expect(first.signals!.every((signal) => signal.id === 'no_ads')).toBe(true);
      const second = await user.call('monetization.ads', { channel_id: CLEAN });
      expect(second.previous).toEqual({
        monetized: false,
        last_seen_monetized_at: null,
        last_seen_demonetized_at: first.checked_at,
        last_checked_at: first.checked_at,
      });
    });

    it('answers null with a hint when a page asks to sign in, though the others show no ads', async () => {
      const body = await user.call('monetization.ads', { channel_id: GATED });
      expect(body.monetized).toBeNull();
      expect(body.reason).toBe('Unknown: of the 3 newest longform watch pages, 2 without ads, 1 refused or not playable.');
      expect(body.hint).toMatch(/^Pages were refused or asked to sign in: check again later/);
      expect(body.signals).toContainEqual({ id: 'sign_in', evidence: 'The page asks to sign in: "Sign in to confirm your age"', url: watch('gtdVideo002') });
    });

    it('does not count ads that may come from a music rights claim', async () => {
      const body = await user.call('monetization.ads', { channel_id: MUSIC });
      expect(body.monetized).toBeNull();
      expect(body.reason).toBe('Unknown: of the 3 newest longform watch pages, 3 with ads that may come from a music rights claim.');
      expect(body.hint).toMatch(/music owner's, not the channel's/);
      const claims = body.signals!.filter((signal) => signal.id === 'music_claim');
      expect(claims).toHaveLength(3);
      expect(claims[0]!.evidence).toContain('Example Music Group (on behalf of Tidewater Records); ASCAP');
    });

    it('answers null when too few pages could say "no ads"', async () => {
      const body = await user.call('monetization.ads', { channel_id: FEW });
      expect(body.monetized).toBeNull();
      expect(body.hint).toMatch(/only 2 longform videos to read; at least 3 clean pages are needed/);
    });

    it('answers true on a Join (membership) button, with no ads served', async () => {
      const body = await user.call('monetization.ads', { channel_id: JOIN });
      expect(body.monetized).toBe(true);
      expect(body.reason).toBe("Monetized: the channel's Join (membership) button on a watch page.");
      expect(body.signals).toContainEqual({ id: 'join_button', evidence: "The watch page shows the channel's Join button (channel memberships).", url: watch('joinVideo01') });
    });

    it('stores every verdict, null included', async () => {
      const stored = await get().engine.store.all<{ channel_id: string; monetized: number | null }>('SELECT channel_id, monetized FROM ad_verdicts ORDER BY channel_id');
      expect(Object.fromEntries(stored.map((row) => [row.channel_id, row.monetized]))).toEqual({ [ADS]: 1, [CLEAN]: 0, [GATED]: null, [MUSIC]: null, [FEW]: null, [JOIN]: 1 });
    });

    it('refuses a terminated channel (404) and a channel the site does not know (400), storing nothing', async () => {
      expect(await failure(user.call('monetization.ads', { channel_id: TERMINATED }))).toMatchObject({ status: 404, code: 'channel_terminated' });
      expect(await failure(user.call('monetization.ads', { channel_id: MISSING }))).toMatchObject({ status: 400 });
      const stored = await get().engine.store.get('SELECT COUNT(*) AS n FROM ad_verdicts WHERE channel_id IN (?, ?)', [TERMINATED, MISSING]);
      expect(stored).toEqual({ n: 0 });
      expect(get().server.unmatched).toEqual([]);
    });
  },
  { postgres: true },
);
