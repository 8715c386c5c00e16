/**
 * A channel's subscribers, views and videos per UTC day from the index: the Social Blade view.
 * A day the index's history does not cover is a point of nulls (a gap), never a figure drawn
 * between its neighbours; the video count is derived only where the videos the index lists reach.
 */
import { notFound } from '../../../core/errors.js';
import type { ChannelHistory, HistoryPoint } from '../../../core/schemas/history.js';
import type { RequestContext } from '../../context.js';
import { DAY_MS, dayToIso } from '../../dates.js';
import type { VideoStat } from '../../index/channels.js';
import { watchFields } from '../watch-fields.js';

/** More videos than any channel's history of a year lists: a list shorter than this is whole. */
const VIDEO_LIST_MAX = 5_000;

export async function channelHistory(request: RequestContext, channelId: string, days: number): Promise<ChannelHistory> {
  const { channels, statistics } = await request.engine.index();
  const channel = await channels.byId(channelId);
  if (!channel) throw notFound(`Channel ${channelId} is not in the index. Read it first (\`tubekit process-channel ${channelId}\`), or check the id.`);
  const coverage = statistics.coverage ? await statistics.coverage(channelId) : null;
  const platformNow = (await request.engine.platform()).nowMs();
  // Windows end at the latest read on a live index, and at the world's current day on the sample one.
  const lastDay = coverage ? Math.floor(coverage.latest_ms / DAY_MS) : Math.ceil(platformNow / DAY_MS) - 1;
  const firstDay = lastDay - days + 1;
  const stats = await statistics.dailyStats(channelId, dayToIso(firstDay), dayToIso(lastDay));
  const byDate = new Map(stats.map((stat) => [stat.date, stat]));
  const videos = await channels.recentVideoStats(channel, undefined, VIDEO_LIST_MAX);
  const points: HistoryPoint[] = [];
  for (let day = firstDay; day <= lastDay; day++) {
    const date = dayToIso(day);
    const stat = byDate.get(date);
    points.push({
      date,
      subscribers: stat?.subscribers ?? null,
      views: stat?.views ?? null,
      videos: stat && channel.video_count !== null ? videosAtEndOf(day, channel.video_count, videos) : null,
    });
  }
  const answer: ChannelHistory = { success: true, channel_id: channel.channel_id, handle: channel.handle || null, title: channel.title, description: channel.description, days, points };
  if (statistics.coverage) Object.assign(answer, watchFields(coverage));
  return answer;
}

/**
 * Videos published by the end of `day`: today's count less those published after it, known when
 * the index's newest-first list reaches back past the day or lists every video the channel has.
 */
export function videosAtEndOf(day: number, videoCount: number, newestFirst: readonly VideoStat[]): number | null {
  const end = (day + 1) * DAY_MS;
  const oldest = newestFirst.at(-1);
  const whole = newestFirst.length >= videoCount;
  if (!whole && (!oldest || oldest.published_ms >= end)) return null;
  let after = 0;
  for (const video of newestFirst) if (video.published_ms >= end) after++;
  return Math.max(0, videoCount - after);
}
