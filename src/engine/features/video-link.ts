/**
 * The video a `video_url` field names (download, video analysis), or the 400 that says which way
 * the link is wrong: `unsupported_url` for another site's link, `video_unavailable` for a
 * well-formed link to a video the platform does not have (or has not published yet), and
 * `invalid_request` for anything that is not a video link at all.
 */
import { ServiceError, badRequest } from '../../core/errors.js';
import { parseVideoLink } from '../../core/video-link.js';
import type { PlatformVideo } from '../platform/platform.js';
import type { EngineContext } from '../context.js';

export interface VideoLinkOptions {
  /** Answer a premiere that has not started (its metadata exists; its media does not yet). */
  allowUpcoming?: boolean;
}

/** The video id a link names, or the 400 that says which way the link is wrong (nothing is read). */
export function videoIdOfLink(url: string, field = 'video_url'): string {
  const link = parseVideoLink(url);
  if (!link.ok) {
    if (link.reason === 'unsupported') {
      throw new ServiceError({ status: 400, code: 'unsupported_url', message: `Unsupported URL: ${field}: ${link.message}.` });
    }
    throw badRequest(`Invalid request: ${field}: ${link.message}.`);
  }
  return link.videoId;
}

export async function resolveVideoLink(engine: EngineContext, url: string, field = 'video_url', options: VideoLinkOptions = {}): Promise<PlatformVideo> {
  const link = { videoId: videoIdOfLink(url, field) };
  const video = await (await engine.platform()).videoById(link.videoId);
  if (!video) {
    throw new ServiceError({
      status: 400,
      code: 'video_unavailable',
      message: `Video unavailable: ${link.videoId} does not exist, is private or was removed.`,
      hint: 'Check the link; `tubekit engine sample videos` lists videos of the sample world.',
    });
  }
  if (video.kind === 'upcoming' && !options.allowUpcoming) {
    throw new ServiceError({
      status: 400,
      code: 'video_unavailable',
      message: `Video unavailable: ${link.videoId} premieres at ${video.published_at} and has no content yet.`,
    });
  }
  return video;
}

/** A video's length, for work that needs it (a section, a render); a 502 when the platform did not give one. */
export function knownDuration(video: Pick<PlatformVideo, 'video_id' | 'duration_seconds'>): number {
  if (video.duration_seconds !== null) return video.duration_seconds;
  throw new ServiceError({
    status: 502,
    code: 'upstream_error',
    message: `The platform did not give the length of video ${video.video_id}.`,
    hint: 'Retry later: the next read of the video may give it.',
  });
}
