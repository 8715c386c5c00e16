/**
 * Still frames of a video for a vision model, sampled evenly across its whole length with ffmpeg:
 * frame i of n is taken at the middle of the i-th of n equal stretches, so a long video is covered
 * from start to end whatever the frame budget. Each frame is a JPEG that fits a square of
 * `maxSide` pixels (aspect kept); one larger than `maxBytes` is encoded again at a lower quality,
 * so the request's size has a known ceiling.
 *
 * One ffmpeg run takes all the frames: every frame is an input of its own that seeks (`-ss` before
 * `-i`) straight to its time, so only a few frames around each are decoded, not the whole video —
 * unless the file has so few pictures (the sample world's: one a second) that decoding it whole is
 * cheaper.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runFfmpeg } from './ffmpeg.js';

export interface FrameSampling {
  /** Frames at most (fewer for a video shorter than that many seconds: one a second at most). */
  maxFrames: number;
  /** Longest side of a frame, pixels. */
  maxSide: number;
  /** ffmpeg's JPEG quality scale, 2 (best) to 31. */
  jpegQuality: number;
  /** Largest frame, bytes; a larger one is encoded again at lower qualities until it fits. */
  maxBytes: number;
}

export interface SampledFrame {
  /** Seconds from the start of the video. */
  atSeconds: number;
  file: string;
  bytes: number;
}

/** Lower qualities tried, in order, for a frame over its byte budget. */
const FALLBACK_QUALITIES = [10, 18, 31];

/**
 * When the frames of a `durationSeconds` video are taken: the middles of equal stretches, one a
 * second at most, none in the last second (a video of one picture a second shows its last picture
 * from a second before its end: a seek past that finds nothing).
 */
export function frameTimes(durationSeconds: number, maxFrames: number): number[] {
  const duration = Math.max(0, durationSeconds);
  const count = Math.max(1, Math.min(maxFrames, Math.floor(duration)));
  const last = Math.max(0, duration - 1);
  return Array.from({ length: count }, (_, index) => Math.min(last, Math.round(((index + 0.5) * duration * 1000) / count) / 1000));
}

/** Fits the frame into a `maxSide` square, never enlarging it (more pixels would carry nothing new). */
const scaleFilter = (maxSide: number) => `scale=w='min(${maxSide},iw)':h='min(${maxSide},ih)':force_original_aspect_ratio=decrease`;

/** A file of at most this many pictures per frame wanted is decoded whole (cheaper than seeking that often). */
const WHOLE_DECODE_PICTURES_PER_FRAME = 40;

export interface VideoPictures {
  /** Pictures a second of the file, when the source knows it (the sample world renders 1). */
  picturesPerSecond?: number;
}

/**
 * Writes `frame-001.jpg`… into `outDir` and returns them in time order; frames past the file's real
 * end are left out. A file with few pictures (as the sample world's, one a second) is decoded once,
 * keeping the picture shown at each time; any other is read by seeking to each time.
 */
export async function sampleFrames(video: string, durationSeconds: number, sampling: FrameSampling, outDir: string, signal?: AbortSignal, pictures: VideoPictures = {}): Promise<SampledFrame[]> {
  const times = frameTimes(durationSeconds, sampling.maxFrames);
  const rate = pictures.picturesPerSecond;
  const taken = rate && rate * durationSeconds <= times.length * WHOLE_DECODE_PICTURES_PER_FRAME ? await decodeOnce(video, times, rate, sampling, outDir, signal) : await seekEach(video, times, sampling, outDir, signal);

  const frames: SampledFrame[] = [];
  for (const { at, file } of taken) {
    const bytes = await sizeOf(file);
    if (!bytes) continue;
    frames.push({ atSeconds: at, file, bytes: await fitBudget(file, bytes, sampling, signal) });
  }
  if (frames.length === 0) throw new Error(`ffmpeg took no frame from the video (${path.basename(video)}): it has no picture, or is shorter than its stated ${durationSeconds} s.`);
  return frames;
}

const frameFile = (outDir: string, index: number) => path.join(outDir, `frame-${String(index + 1).padStart(3, '0')}.jpg`);

/** One ffmpeg run, one input per time, each seeking straight to it. */
async function seekEach(video: string, times: number[], sampling: FrameSampling, outDir: string, signal?: AbortSignal): Promise<Array<{ at: number; file: string }>> {
  const files = times.map((_, index) => frameFile(outDir, index));
  const args: string[] = [];
  // One decoding thread per input: a frame-threaded decoder would decode frames ahead for nothing.
  for (const at of times) args.push('-threads', '1', '-ss', at.toFixed(3), '-i', video);
  times.forEach((_, index) => {
    args.push('-map', `${index}:v:0`, '-frames:v', '1', '-vf', scaleFilter(sampling.maxSide), '-q:v', String(sampling.jpegQuality), '-f', 'image2', files[index]!);
  });
  await runFfmpeg(args, { signal });
  return times.map((at, index) => ({ at, file: files[index]! }));
}

/** One pass over the whole file, keeping picture floor(t × rate) for each time t (the one shown then). */
async function decodeOnce(video: string, times: number[], rate: number, sampling: FrameSampling, outDir: string, signal?: AbortSignal): Promise<Array<{ at: number; file: string }>> {
  const wanted: Array<{ at: number; picture: number }> = [];
  for (const at of times) {
    const picture = Math.floor(at * rate + 1e-6);
    if (wanted.at(-1)?.picture !== picture) wanted.push({ at, picture });
  }
  const select = `select='${wanted.map(({ picture }) => `eq(n,${picture})`).join('+')}'`;
  await runFfmpeg(
    ['-threads', '1', '-i', video, '-map', '0:v:0', '-vf', `${select},${scaleFilter(sampling.maxSide)}`, '-vsync', '0', '-q:v', String(sampling.jpegQuality), '-f', 'image2', '-start_number', '1', path.join(outDir, 'frame-%03d.jpg')],
    { signal },
  );
  // The pictures come out in order, numbered from 1; those past the file's end are simply missing.
  return wanted.map(({ at }, index) => ({ at, file: frameFile(outDir, index) }));
}

/** Encodes a frame again at lower qualities until it is within the byte budget; returns its size. */
async function fitBudget(file: string, bytes: number, sampling: FrameSampling, signal?: AbortSignal): Promise<number> {
  let size = bytes;
  for (const quality of FALLBACK_QUALITIES) {
    if (size <= sampling.maxBytes || quality <= sampling.jpegQuality) continue;
    const smaller = `${file}.q${quality}.jpg`;
    await runFfmpeg(['-i', file, '-q:v', String(quality), '-f', 'image2', smaller], { signal });
    await fs.promises.rename(smaller, file);
    size = (await sizeOf(file)) ?? 0;
  }
  if (size > sampling.maxBytes) throw new Error(`A frame stays at ${size} bytes even at the lowest JPEG quality, over the ${sampling.maxBytes}-byte budget.`);
  return size;
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    const { size } = await fs.promises.stat(file);
    return size > 0 ? size : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
