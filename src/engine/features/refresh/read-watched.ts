/**
 * One watched channel, read by the refresh sweep: its page (figures, or the finding that it was
 * terminated or deleted), the newest uploads on its Videos tab (and Shorts tab when a shorts alert
 * needs them), and — when it is scanned for collabs — the watch pages of uploads the index has not
 * examined yet, which list every channel of a collab. All of it is stored in one transaction once
 * every read parsed; a read that fails stores nothing of the channel.
 */
import type { ReadRecording } from '../../index/engine-index.js';
import type { ChannelPresence, PlatformProvider } from '../../platform/platform.js';
import type { RefreshStore } from './refresh-store.js';

/** Uploads listed per read: one page of a tab, enough for the alert rules (20 newest). */
export const LISTED_UPLOADS = 30;
/** Watch pages read per scanned channel per sweep; the rest wait for the next sweep. */
export const WATCH_PAGES_PER_SWEEP = 10;

export interface WatchedRead {
  channel_id: string;
  state: 'active' | 'terminated' | 'missing';
  title: string | null;
  subscribers: number | null;
  total_views: number | null;
  video_count: number | null;
  /** Uploads listed on its tabs. */
  uploads: number;
  /** Watch pages read (uploads examined for collabs). */
  watch_pages: number;
  /** Of those, videos listing several channels. */
  collab_videos: number;
}

/** A channel's entry before anything of it is read. */
export function unreadChannel(channelId: string): WatchedRead {
  return { channel_id: channelId, state: 'active', title: null, subscribers: null, total_views: null, video_count: null, uploads: 0, watch_pages: 0, collab_videos: 0 };
}

/** Whether the channel is active (and as what), terminated or gone; a platform without presence reads says active or missing. */
async function presenceOf(platform: PlatformProvider, channelId: string): Promise<ChannelPresence> {
  if (platform.channelPresence) return platform.channelPresence(channelId);
  const channel = await platform.channelById(channelId);
  return channel ? { state: 'active', channel } : { state: 'missing', channel_id: channelId };
}

export async function readWatchedChannel(
  platform: PlatformProvider,
  recording: ReadRecording,
  store: RefreshStore,
  channelId: string,
  options: { scan: boolean; shorts: boolean },
): Promise<WatchedRead> {
  return recording.together(async () => {
    const presence = await presenceOf(platform, channelId);
    const read: WatchedRead = { ...unreadChannel(channelId), state: presence.state };
    if (presence.state !== 'active') return read;
    const { channel } = presence;
    Object.assign(read, { title: channel.title, subscribers: channel.subscribers, total_views: channel.total_views, video_count: channel.video_count });
    const uploads = await platform.channelVideos(channelId, { kind: 'long', limit: LISTED_UPLOADS });
    read.uploads = uploads.length;
    if (options.shorts && (channel.content_type === 'shorts' || channel.content_type === 'mixed')) {
      read.uploads += (await platform.channelVideos(channelId, { kind: 'short', limit: LISTED_UPLOADS })).length;
    }
    if (options.scan) {
      const examined = await store.examinedVideos(uploads.map((video) => video.video_id));
      for (const upload of uploads.filter((video) => !examined.has(video.video_id)).slice(0, WATCH_PAGES_PER_SWEEP)) {
        const video = await platform.videoById(upload.video_id);
        read.watch_pages += 1;
        if ((video?.channel_ids?.length ?? 1) > 1) read.collab_videos += 1;
      }
      await recording.collabScanned(channelId);
    }
    return read;
  });
}
