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
