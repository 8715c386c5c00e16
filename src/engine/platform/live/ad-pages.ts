/**
 * The ad check's read of a channel on the live site: its newest longform watch pages (player and
 * watch-next answers), each judged on what it shows — ads served to this request, none, a music
 * section whose rights owner may be the one running them, a page that does not play, a refusal.
 */
import type { ChannelVideosOptions } from '../platform.js';
import type { AdPage, PageSignal } from '../page-signals.js';
import type { InnertubeClient } from './innertube.js';
import type { Json } from './json-walk.js';
import { withRawTrail } from './raw-responses.js';
import type { LiveVideo } from './types.js';
import { parsePlayer, parseWatchNext } from './video-page.js';
import { adsServed, joinButton, musicSection, playabilityOf, watchUrl } from './watch-signals.js';

/** Watch pages read for one check. */
export const LIVE_AD_PAGES = 5;

type PageVideo = Pick<LiveVideo, 'video_id' | 'title' | 'published_at'>;

export interface VideoLister {
  channelVideos(channelId: string, options?: ChannelVideosOptions): Promise<LiveVideo[]>;
}

/** The newest longform videos that play now (no upcoming or live ones), newest first. */
export async function newestLongform(lister: VideoLister, channelId: string, count: number): Promise<LiveVideo[]> {
  const videos = await lister.channelVideos(channelId, { kind: 'long', limit: count + 3 });
  return videos.filter((video) => video.availability === 'ok').slice(0, count);
}

export async function readAdPages(client: InnertubeClient, lister: VideoLister, channelId: string): Promise<AdPage[]> {
  const pages: AdPage[] = [];
  for (const video of await newestLongform(lister, channelId, LIVE_AD_PAGES)) {
    const page = await readAdPage(client, channelId, video);
    if (page) pages.push(page);
  }
  return pages;
}

/** One watch page; null when the site no longer knows the video. A refused read is a blocked page. */
function readAdPage(client: InnertubeClient, channelId: string, video: PageVideo): Promise<AdPage | null> {
  return withRawTrail(async () => {
    try {
      const { data: player } = await client.call('/player', { videoId: video.video_id });
      if (player === null) return null;
      const parsed = parsePlayer(player, video.video_id);
      if (parsed && 'missing' in parsed) return client.notUnderstood(`player ${video.video_id}`, parsed.missing);
      const { data: next } = await client.call('/next', { videoId: video.video_id });
      const watchNext = next === null ? null : parseWatchNext(next, Date.now());
      if (watchNext && 'missing' in watchNext) return client.notUnderstood(`next ${video.video_id}`, watchNext.missing);
      return adPageOf(video, channelId, player, next ?? {});
    } catch (error) {
      const signal = refusalSignal(error, watchUrl(video.video_id));
      if (!signal) throw error;
      return { video_id: video.video_id, title: video.title, published_at: video.published_at, outcome: 'blocked', signals: [signal] };
    }
  });
}

/** The site refused the read (HTTP 429, a bot check, a sign-in wall): a signal, not a failure of the whole check. */
export function refusalSignal(error: unknown, url: string): PageSignal | null {
  const refused = error as { code?: string; message?: string };
  if (refused?.code !== 'platform_refused') return null;
  return { id: 'refused', evidence: `The site refused the read: ${refused.message}`, url };
}

/** What one watch page shows about ads, from its player and watch-next answers. */
export function adPageOf(video: PageVideo, channelId: string, player: Json, next: Json): AdPage {
  const url = watchUrl(video.video_id);
  const base = { video_id: video.video_id, title: video.title, published_at: video.published_at };
  const membership = joinButton(next, channelId);
  const join: PageSignal[] = membership ? [{ id: 'join_button', evidence: "The watch page shows the channel's Join button (channel memberships).", url }] : [];
  const playability = playabilityOf(player, url);
  if (!playability.playable) {
    return { ...base, outcome: 'blocked', membership: membership || playability.membersOnly, signals: [playability.signal, ...join] };
  }
  const ads = adsServed(player, url);
  const music = musicSection(next);
  if (ads.served === true && music) {
    const listed = music.licensing.length > 0 ? `licensed music (${music.licensing.join(' | ')})` : `${music.songs === 1 ? 'a song' : `${music.songs} songs`}`;
    const claim = { id: 'music_claim', evidence: `The description's music section lists ${listed}: the music's rights owner may be the one running these ads.`, url };
    return { ...base, outcome: 'music_claim', membership, signals: [...ads.signals, claim, ...join] };
  }
  const outcome = ads.served === true ? 'ads' : ads.served === false ? 'no_ads' : 'unclear';
  return { ...base, outcome, membership, signals: [...ads.signals, ...join] };
}
