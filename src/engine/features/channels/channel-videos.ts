/** `GET /api/channels/:channel_id/videos`: a channel's recent videos from the index alone (no platform read, no quota). */
import { notFound } from '../../../core/errors.js';
import { CHANNEL_VIDEOS_RANKED, type ChannelVideos } from '../../../core/schemas/channel-videos.js';
import type { ParsedInput } from '../../../core/routes.js';
import { isoTime } from '../../clock.js';
import type { RequestContext } from '../../context.js';

export async function channelVideos(request: RequestContext, input: ParsedInput<'channels.videos'>): Promise<ChannelVideos> {
  const { channels } = await request.engine.index();
  const channel = await channels.byId(input.channel_id);
  if (!channel) throw notFound(`Channel ${input.channel_id} is not in the index. Read it first (\`tubekit process-channel ${input.channel_id}\`), or check the id.`);
  const listed = await channels.recentVideoStats(channel, undefined, input.sort === 'views' ? CHANNEL_VIDEOS_RANKED : input.limit);
  // Most viewed first, unknown views last, the newer first among equals; the index lists newest first.
  const chosen = (input.sort === 'views' ? [...listed].sort((a, b) => (b.views ?? -1) - (a.views ?? -1) || b.published_ms - a.published_ms) : listed).slice(0, input.limit);
  const titles = await Promise.all(chosen.map((video) => channels.videoTitle(video.video_id)));
  return {
    success: true,
    channel_id: channel.channel_id,
    sort: input.sort,
    ranked: listed.length,
    video_count: channel.video_count,
    videos: chosen.map((video, index) => ({ video_id: video.video_id, title: titles[index] ?? null, kind: video.kind, published_at: isoTime(video.published_ms), views: video.views })),
  };
}
