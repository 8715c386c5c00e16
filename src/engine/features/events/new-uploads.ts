/**
 * channel.new_upload on the sample platform: the uploads the world published while it advanced,
 * for every saved channel, one event per user saving it — written in the advance's transaction.
 * The world lists a channel's newest uploads only (its recent-videos window), so an advance longer
 * than that window reports the newest of them.
 */
import type { PlatformProvider } from '../../platform/platform.js';
import type { Transaction } from '../../store/store.js';
import { recordEvents, type NewEvent } from './outbox.js';

type UploadReads = Pick<PlatformProvider, 'channelVideos' | 'channelById'>;

const KINDS = { long: 'longform', short: 'short' } as const;

/** Records the events of uploads published in (fromMs, toMs], stamped `at` (wall-clock). */
export async function recordNewUploads(tx: Transaction, world: UploadReads, fromMs: number, toMs: number, at: number): Promise<number> {
  const saved = await tx.all<{ user_id: number; channel_id: string }>("SELECT DISTINCT user_id, channel_id FROM saved_channels ORDER BY channel_id, user_id");
  const watchers = new Map<string, number[]>();
  for (const row of saved) watchers.set(row.channel_id, [...(watchers.get(row.channel_id) ?? []), row.user_id]);
  const events: NewEvent[] = [];
  for (const [channelId, users] of watchers) {
    const videos = (await world.channelVideos(channelId)).filter((video) => {
      // A video without a known publish time cannot be placed in the window.
      if (video.published_at === null) return false;
      const published = Date.parse(video.published_at);
      return video.channel_id === channelId && video.kind !== 'upcoming' && published > fromMs && published <= toMs;
    });
    if (videos.length === 0) continue;
    const channel = await world.channelById(channelId);
    // Oldest first: events are in the order the uploads happened.
    for (const video of videos.reverse()) {
      for (const userId of users) {
        events.push({
          userId,
          type: 'channel.new_upload',
          at,
          data: {
            channel_id: channelId,
            handle: channel?.handle || null,
            title: channel?.title ?? channelId,
            video_id: video.video_id,
            video_title: video.title,
            kind: KINDS[video.kind as keyof typeof KINDS],
            published_at: video.published_at,
          },
        });
      }
    }
  }
  await recordEvents(tx, events);
  return events.length;
}
