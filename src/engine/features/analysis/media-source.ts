/**
 * Where a vision model's video comes from, chosen per platform: the sample world renders its
 * videos with ffmpeg (the same render as downloads); the live platform fetches the real video with
 * yt-dlp — `fetchLiveVideoForAnalysis` below is where that fetcher is connected.
 */
import path from 'node:path';
import { ServiceError } from '../../../core/errors.js';
import { ffmpegAvailable } from '../../speech/decode.js';
import { PICTURES_PER_SECOND } from '../../media/picture.js';
import { renderMp4 } from '../../media/render.js';
import type { PlatformProvider, PlatformVideo } from '../../platform/platform.js';

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
  return platform.simulation ? (request) => renderSampleVideo(platform, request) : fetchLiveVideoForAnalysis;
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
  const [channel, transcript] = await Promise.all([platform.channelById(video.channel_id), platform.transcript(video.video_id)]);
  const file = path.join(request.workDir, `${video.video_id}-${request.height}p.mp4`);
  await renderMp4(
    {
      videoId: video.video_id,
      channelId: video.channel_id,
      title: video.title,
      channelTitle: channel?.title ?? video.channel_id,
      portrait: video.kind === 'short',
      transcript,
      section: { start: 0, duration: video.duration_seconds },
    },
    request.height,
    file,
    { workDir: request.workDir, signal: request.signal },
    { sound: request.sound },
  );
  return { file, mimeType: 'video/mp4', height: request.height, durationSeconds: video.duration_seconds, picturesPerSecond: PICTURES_PER_SECOND };
}

/**
 * The live platform's video at `height`, fetched with yt-dlp (issue 20, downloads part: branch
 * h-ytdlp). Connect its video fetcher here: fetch `request.video.video_id` as H.264/AAC MP4 at
 * `request.height` or the next lower height into `request.workDir`, honouring `request.signal`,
 * and answer `{file, mimeType: 'video/mp4', height: delivered height, durationSeconds}` (with
 * `picturesPerSecond` from yt-dlp's `fps` when known; frame sampling then picks its method).
 * Until then the job fails saying what is missing.
 */
export async function fetchLiveVideoForAnalysis(request: VideoFetch): Promise<AnalysisVideo> {
  throw new ServiceError({
    status: 501,
    code: 'not_implemented_on_live',
    message:
      `Video analysis on the live platform is not available yet (not_implemented_on_live): the vision model is configured, but fetching ` +
      `the video ${request.video.video_id} at ${request.height}p with yt-dlp is not connected to analysis in this build. ` +
      'Analyse sample-world videos meanwhile (a data dir on the sample platform), or use the hosted service with --base-url.',
  });
}
