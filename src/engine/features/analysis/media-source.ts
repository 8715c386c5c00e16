/**
 * Where a vision model's video comes from, chosen per platform: the sample world renders its
 * videos with ffmpeg (the same render as downloads); the live platform fetches the real video with
 * yt-dlp and ffmpeg, as downloads fetch it.
 */
import path from 'node:path';
import { ServiceError } from '../../../core/errors.js';
import { ffmpegAvailable } from '../../speech/decode.js';
import { PICTURES_PER_SECOND } from '../../media/picture.js';
import { renderMp4, renderSubjectOf } from '../../media/render.js';
import type { PlatformMedia } from '../../platform/media.js';
import type { PlatformProvider, PlatformVideo } from '../../platform/platform.js';
import { fetchMediaVideoFile } from '../downloads/video-file.js';
import { knownDuration } from '../video-link.js';

/** A whole video as a file, for the model. */
export interface AnalysisVideo {
  file: string;
  mimeType: 'video/mp4';
  /** Frame height delivered (may be lower than asked when the video has none that high). */
  height: number;
  durationSeconds: number;
  /** Pictures a second, when known: a file with few is cheaper to decode whole than to seek in. */
  picturesPerSecond?: number;
}

export interface VideoFetch {
  video: PlatformVideo;
  /** Frame height wanted: 360 (media_resolution low) or 720. */
  height: number;
  /** A scratch folder for the file (and any pieces); its caller removes it. */
  workDir: string;
  /** Whether the sound is needed (a model watching the file listens too); frames alone need none. A source may add it anyway. */
  sound: boolean;
  signal: AbortSignal;
}

export type AnalysisMediaSource = (request: VideoFetch) => Promise<AnalysisVideo>;

export function analysisMediaSource(platform: PlatformProvider): AnalysisMediaSource {
  if (platform.simulation) return (request) => renderSampleVideo(platform, request);
  const { media } = platform;
  return media ? (request) => fetchLiveVideo(media, request) : noMediaSource;
}

const ffmpegMissingForAnalysis = () =>
  new ServiceError({
    status: 503,
    code: 'unavailable',
    message:
      'Video analysis with a vision model needs ffmpeg where the engine runs (to take frames of the video), and it is not installed. ' +
      'Install it (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg; Windows: winget install ffmpeg) and submit the analysis again.',
  });

export async function requireFfmpegForAnalysis(): Promise<void> {
  if (!(await ffmpegAvailable())) throw ffmpegMissingForAnalysis();
}

/** The sample world's video, rendered whole at the height (its picture, its sound, its subtitles). */
async function renderSampleVideo(platform: PlatformProvider, request: VideoFetch): Promise<AnalysisVideo> {
  const { video } = request;
  const duration = knownDuration(video);
  const [channel, transcript] = await Promise.all([platform.channelById(video.channel_id), platform.transcript(video.video_id)]);
  const file = path.join(request.workDir, `${video.video_id}-${request.height}p.mp4`);
  await renderMp4(
    renderSubjectOf(video, channel, transcript, { start: 0, duration }),
    request.height,
    file,
    { workDir: request.workDir, signal: request.signal },
    { sound: request.sound },
  );
  return { file, mimeType: 'video/mp4', height: request.height, durationSeconds: duration, picturesPerSecond: PICTURES_PER_SECOND };
}

/**
 * The live platform's video at `height` (or the next lower one it has), fetched by its media source
 * (yt-dlp and ffmpeg, as downloads fetch it) into the job's scratch folder; it always has its sound.
 */
async function fetchLiveVideo(media: PlatformMedia, request: VideoFetch): Promise<AnalysisVideo> {
  const fetched = await fetchMediaVideoFile(media, request.video.video_id, { height: request.height, dir: request.workDir, signal: request.signal });
  return { file: fetched.file, mimeType: 'video/mp4', height: fetched.height ?? request.height, durationSeconds: fetched.duration_seconds };
}

/** A platform that neither renders its videos nor has a media source cannot show a model anything. */
async function noMediaSource(request: VideoFetch): Promise<AnalysisVideo> {
  throw new ServiceError({
    status: 501,
    code: 'not_implemented_on_live',
    message: `This platform has no media source: the video ${request.video.video_id} cannot be fetched for a vision model.`,
  });
}
