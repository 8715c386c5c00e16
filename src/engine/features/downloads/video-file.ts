/**
 * "The video at this height as a file", for the engine's own use (video analysis samples frames
 * from it): from the platform's media source on the live platform (yt-dlp and ffmpeg), rendered
 * on the sample world. No caps, no cache, no answer: the caller owns `dir` and removes it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ServiceError } from '../../../core/errors.js';
import type { EngineContext } from '../../context.js';
import { probeMedia, videoStream } from '../../media/ffprobe.js';
import { renderSubjectOf } from '../../media/render.js';
import type { MediaSection, PlatformMedia } from '../../platform/media.js';
import { knownDuration } from '../video-link.js';
import { renderDownloadFile } from './render-file.js';

export interface VideoFileOptions {
  /** Frame height wanted (360 for a low resolution, 720 for the default one); a video without it gives the next lower. */
  height: number;
  /** A part of the video (seconds from its start); the whole video when absent. */
  section?: MediaSection;
  /** An empty folder of the caller's, where the file (and the work's pieces) go. */
  dir: string;
  signal?: AbortSignal;
}

export interface VideoFile {
  /** An MP4 (H.264, AAC) in `dir`. */
  file: string;
  height: number | null;
  duration_seconds: number;
  size_bytes: number;
  title: string;
}

export async function fetchVideoFile(engine: EngineContext, videoId: string, options: VideoFileOptions): Promise<VideoFile> {
  const platform = await engine.platform();
  if (platform.media) return fetchMediaVideoFile(platform.media, videoId, options);
  const file = path.join(options.dir, 'video.mp4');
  const video = await platform.videoById(videoId);
  if (!video || video.kind === 'upcoming') {
    throw new ServiceError({ status: 400, code: 'video_unavailable', message: `Video unavailable: ${videoId} does not exist or has no content yet.` });
  }
  const section = options.section ?? { start: 0, duration: knownDuration(video) };
  const channel = await platform.channelById(video.channel_id);
  const subject = renderSubjectOf(video, channel, await platform.transcript(videoId), section);
  const size = await renderDownloadFile({ format: 'video', height: options.height, subject }, file, { dataDir: engine.dataDir, signal: options.signal });
  const probed = await probeMedia(file, options.signal);
  return { file, height: videoStream(probed)?.height ?? options.height, duration_seconds: probed.duration_seconds, size_bytes: size, title: video.title };
}

/** The video at a height from a platform's media source (the live platform's yt-dlp and ffmpeg). */
export async function fetchMediaVideoFile(media: PlatformMedia, videoId: string, options: VideoFileOptions): Promise<VideoFile> {
  const file = path.join(options.dir, 'video.mp4');
  const description = await media.describe(videoId, options.signal);
  const section = options.section ?? { start: 0, duration: description.duration_seconds };
  const choice = media.choose(description, { format: 'video', height: options.height, section });
  const workDir = path.join(options.dir, 'work');
  await fs.promises.mkdir(workDir, { recursive: true, mode: 0o700 });
  try {
    const fetched = await media.fetch(description, choice, section, file, { workDir, signal: options.signal });
    return { file, height: fetched.height, duration_seconds: fetched.duration_seconds, size_bytes: fetched.size_bytes, title: description.title };
  } finally {
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
}
