/**
 * `GET /api/video?url=` (ours): one video's metadata in the names `yt-dlp --dump-json` uses, so
 * scripts written for yt-dlp read it unchanged. Only what the platform knows: no formats, no
 * made-up thumbnail sizes; a premiere that has not started has no duration or upload date yet.
 */
import type { ParsedInput, RouteOutput } from '../../../core/routes.js';
import type { RequestContext } from '../../context.js';
import { resolveVideoLink } from '../video-link.js';

type VideoInfo = RouteOutput<'video.info'>;

const PLATFORM = 'https://www.youtube.com';

export async function videoInfo(request: RequestContext, input: ParsedInput<'video.info'>): Promise<VideoInfo> {
  const video = await resolveVideoLink(request.engine, input.url, 'url', { allowUpcoming: true });
  const platform = await request.engine.platform();
  const [channel, transcript] = await Promise.all([platform.channelById(video.channel_id), platform.transcript(video.video_id)]);
  const upcoming = video.kind === 'upcoming';
  const published = video.published_at === null ? null : Math.floor(Date.parse(video.published_at) / 1000);
  const date = video.published_at === null ? null : video.published_at.slice(0, 10).replaceAll('-', '');
  // A figure the site did not give stays unknown: null, never 0 or "".
  const duration = upcoming ? null : video.duration_seconds;
  return {
    success: true,
    id: video.video_id,
    title: video.title,
    fulltitle: video.title,
    webpage_url: video.kind === 'short' ? `${PLATFORM}/shorts/${video.video_id}` : `${PLATFORM}/watch?v=${video.video_id}`,
    original_url: input.url,
    extractor: 'youtube',
    extractor_key: 'Youtube',
    channel: channel?.title ?? null,
    channel_id: video.channel_id,
    channel_url: `${PLATFORM}/channel/${video.channel_id}`,
    channel_follower_count: channel?.subscribers ?? null,
    uploader: channel?.title ?? null,
    uploader_id: channel?.handle ?? null,
    uploader_url: channel ? `${PLATFORM}/${channel.handle}` : null,
    duration,
    duration_string: duration === null ? null : durationString(duration),
    view_count: video.views,
    like_count: video.likes,
    comment_count: video.comments,
    upload_date: upcoming ? null : date,
    timestamp: upcoming ? null : published,
    published_at_exact: video.published_at === null ? null : (video.published_exact ?? true),
    release_date: upcoming ? date : null,
    release_timestamp: upcoming ? published : null,
    live_status: upcoming ? 'is_upcoming' : 'not_live',
    media_type: video.kind === 'short' ? 'short' : 'video',
    availability: 'public',
    thumbnail: video.thumbnail_url,
    thumbnails: [{ id: '0', url: video.thumbnail_url }],
    // The video's own category (the live player names it), else its channel's.
    categories: video.category ? [video.category] : channel?.category ? [channel.category] : [],
    language: channel?.language_code ?? null,
    captions: transcript?.source ?? null,
  };
}

/** yt-dlp's `duration_string`: `45`, `4:05`, `1:02:03`. */
export function durationString(seconds: number): string {
  const whole = Math.round(seconds);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor((whole % 3600) / 60), whole % 60];
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  if (m > 0) return `${m}:${String(s).padStart(2, '0')}`;
  return String(s);
}
