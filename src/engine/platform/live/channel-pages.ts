/**
 * A channel's public pages for the checks to judge: its title, badges, description and links (the
 * channel page and its about panel), and its newest longform videos' descriptions, paid-promotion
 * disclosures and — when asked — the licensing rows of their music sections.
 */
import type { ChannelPresence } from '../types.js';
import type { ChannelPages, ChannelPagesOptions, ChannelPageVideo } from '../public-pages.js';
import type { PageSignal } from '../page-signals.js';
import { newestLongform, refusalSignal, type VideoLister } from './ad-pages.js';
import type { InnertubeClient } from './innertube.js';
import { asString, at, textOf } from './json-walk.js';
import { withRawTrail } from './raw-responses.js';
import type { LiveChannel, LiveVideo } from './types.js';
import { parsePlayer, parseWatchNext } from './video-page.js';
import { musicSection, paidPromotion, playabilityOf, watchUrl } from './watch-signals.js';

export interface ChannelReader extends VideoLister {
  channelPresence(channelId: string): Promise<ChannelPresence>;
}

export const aboutUrl = (channelId: string) => `https://www.youtube.com/channel/${channelId}/about`;

export async function readChannelPages(client: InnertubeClient, reader: ChannelReader, channelId: string, options: ChannelPagesOptions): Promise<ChannelPages | null> {
  const presence = await reader.channelPresence(channelId);
  if (presence.state !== 'active') return null;
  const channel = presence.channel as LiveChannel;
  const videos: ChannelPageVideo[] = [];
  const unread: PageSignal[] = [];
  for (const listed of await newestLongform(reader, channelId, options.videos)) {
    const read = await readVideoPage(client, listed, options.licensing);
    if (read === null) continue;
    if ('signal' in read) unread.push(read.signal);
    else videos.push(read);
  }
  return {
    channel_id: channel.channel_id,
    channel_url: aboutUrl(channel.channel_id),
    title: channel.title,
    description: channel.description,
    links: channel.links,
    official_artist: channel.badges.includes('artist'),
    videos,
    unread,
  };
}

/** One video's page; null when the site no longer knows it; a signal when it could not be read. */
function readVideoPage(client: InnertubeClient, listed: LiveVideo, licensing: boolean): Promise<ChannelPageVideo | { signal: PageSignal } | null> {
  const url = watchUrl(listed.video_id);
  return withRawTrail(async () => {
    try {
      const { data: player } = await client.call('/player', { videoId: listed.video_id });
      if (player === null) return null;
      const details = at(player, 'videoDetails');
      const parsed = parsePlayer(player, listed.video_id);
      if (parsed && 'missing' in parsed) return client.notUnderstood(`player ${listed.video_id}`, parsed.missing);
      if (!details || parsed === null) {
        const playability = playabilityOf(player, url);
        return { signal: playability.playable ? { id: 'unplayable', evidence: 'The player answer carries no video details.', url } : playability.signal };
      }
      const description = asString(at(details, 'shortDescription')) ?? textOf(at(player, 'microformat', 'playerMicroformatRenderer', 'description')) ?? '';
      let rows: string[] = [];
      if (licensing) {
        const { data: next } = await client.call('/next', { videoId: listed.video_id });
        const watchNext = next === null ? null : parseWatchNext(next, Date.now());
        if (watchNext && 'missing' in watchNext) return client.notUnderstood(`next ${listed.video_id}`, watchNext.missing);
        rows = next === null ? [] : (musicSection(next)?.licensing ?? []);
      }
      return {
        video_id: listed.video_id,
        url,
        title: parsed.title || listed.title,
        description,
        views: parsed.views ?? listed.views,
        published_at: parsed.publishedAt ?? listed.published_at,
        paid_promotion: paidPromotion(player),
        licensing: rows,
      };
    } catch (error) {
      const signal = refusalSignal(error, url);
      if (!signal) throw error;
      return { signal };
    }
  });
}
