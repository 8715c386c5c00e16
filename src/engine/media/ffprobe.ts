/**
 * What a media file holds, as ffprobe reads it: its length and its streams' codecs and frame
 * size. ffprobe is found beside the ffmpeg in use: $FFPROBE_PATH, else next to $FFMPEG_PATH, else
 * `ffprobe` on PATH.
 */
import path from 'node:path';
import { execa } from 'execa';
import { ServiceError } from '../../core/errors.js';

export interface ProbedStream {
  type: 'video' | 'audio' | 'subtitle' | string;
  codec: string;
  width: number | null;
  height: number | null;
}

export interface ProbedMedia {
  duration_seconds: number;
  streams: ProbedStream[];
}

export function ffprobeCommand(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FFPROBE_PATH) return env.FFPROBE_PATH;
  if (env.FFMPEG_PATH && path.isAbsolute(env.FFMPEG_PATH)) return path.join(path.dirname(env.FFMPEG_PATH), path.basename(env.FFMPEG_PATH).replace(/ffmpeg/, 'ffprobe'));
  return 'ffprobe';
}

interface FfprobeJson {
  format?: { duration?: string };
  streams?: Array<{ codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }>;
}

export async function probeMedia(file: string, signal?: AbortSignal): Promise<ProbedMedia> {
  const { stdout } = await execa(ffprobeCommand(), ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type,codec_name,width,height,duration', '-of', 'json', file], {
    cancelSignal: signal,
    timeout: 60_000,
    stdin: 'ignore',
  });
  const parsed = JSON.parse(stdout) as FfprobeJson;
  const streams = (parsed.streams ?? []).map((stream) => ({
    type: stream.codec_type ?? 'unknown',
    codec: stream.codec_name ?? 'unknown',
    width: stream.width ?? null,
    height: stream.height ?? null,
  }));
  const duration = Number(parsed.format?.duration ?? parsed.streams?.find((stream) => stream.duration)?.duration ?? 0);
  return { duration_seconds: Number.isFinite(duration) ? duration : 0, streams };
}

export const videoStream = (media: ProbedMedia) => media.streams.find((stream) => stream.type === 'video');
export const audioStream = (media: ProbedMedia) => media.streams.find((stream) => stream.type === 'audio');

let ffprobeProbe: Promise<boolean> | undefined;

/** 503 when ffprobe cannot be run (checked once per process): live downloads check every file with it. */
export async function requireFfprobe(): Promise<void> {
  ffprobeProbe ??= execa(ffprobeCommand(), ['-hide_banner', '-version'], { timeout: 10_000, stdin: 'ignore' }).then(
    () => true,
    () => false,
  );
  if (await ffprobeProbe) return;
  throw new ServiceError({
    status: 503,
    code: 'unavailable',
    message: `Live downloads need ffprobe (it comes with ffmpeg), which could not be run (${ffprobeCommand()}).`,
    hint: 'Install ffmpeg (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg), or set FFPROBE_PATH.',
  });
}
