/**
 * A download from a platform's media source (the live platform's yt-dlp and ffmpeg). Its metadata
 * is read first (no media): the section is judged against the real length, the size rule against
 * the real streams' sizes or bitrates, and the delivered height is known before the cache is asked.
 * Every format needs ffmpeg here (merging, cutting, MP3, SRT conversion).
 */
import type { RequestContext } from '../../context.js';
import { checkEstimatedDownloadSize } from '../../limits/download-size.js';
import { requireFfmpeg } from '../../media/ffmpeg.js';
import { requireFfprobe } from '../../media/ffprobe.js';
import type { PlatformMedia } from '../../platform/media.js';
import { videoIdOfLink } from '../video-link.js';
import { cacheTarget, type DownloadInput, type DownloadPlan } from './plan.js';
import { fetchDownloadFile } from './fetch-file.js';
import { requestedSection } from './section.js';

/** Rough fetch cost per second of media (the parallel cap's first wait guidance; progress refines it). */
const FETCH_MS_PER_SECOND = { video: 20, audio: 10, subtitles: 0 };

export async function mediaPlan(request: RequestContext, input: DownloadInput, media: PlatformMedia): Promise<DownloadPlan> {
  const videoId = videoIdOfLink(input.video_url);
  const description = await media.describe(videoId, request.signal);
  // The validated id, never the metadata's own `id`: it names the cache entry's folder.
  const video = { video_id: videoId, title: description.title, duration_seconds: description.duration_seconds };
  const section = requestedSection(video.duration_seconds, input.format, input.start, input.end);
  const requestedHeight = input.format === 'video' ? Number.parseInt(input.quality, 10) : null;
  const seconds = section.end - section.start;
  const choice = media.choose(description, { format: input.format, height: requestedHeight, section: { start: section.start, duration: seconds } });
  if (input.format !== 'subtitles') {
    checkEstimatedDownloadSize(choice.estimated_bytes, seconds, input.format === 'video' ? `${choice.height}p video` : 'audio', request.limits);
  }
  const height = choice.height;
  const target = cacheTarget(request, { videoId: video.video_id, title: video.title, format: input.format, height }, section, video.duration_seconds, FETCH_MS_PER_SECOND[input.format]);
  return {
    video,
    section,
    format: input.format,
    requestedHeight,
    height,
    lowerQualityReason: height && requestedHeight && height < requestedHeight ? `the video has no ${requestedHeight}p stream` : null,
    target,
    prepare: async () => {
      await requireFfmpeg();
      await requireFfprobe();
    },
    make: (file, options) =>
      fetchDownloadFile(media, { description, choice, section: { start: section.start, duration: seconds } }, file, { dataDir: request.engine.dataDir, ...options }),
  };
}
