/**
 * Running ffmpeg for rendered media. Video and audio downloads need it; without it they answer
 * 503 with how to install it (subtitles never need it). ffmpeg is found as the speech module
 * finds it ($FFMPEG_PATH, else PATH), probed once per process.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceError } from '../../core/errors.js';
import { ffmpegAvailable, ffmpegCommand } from '../speech/decode.js';
import { execaTethered } from '../tethered-process.js';

export const ffmpegMissing = () =>
  new ServiceError({
    status: 503,
    code: 'unavailable',
    message:
      'Video and audio downloads need ffmpeg, which is not installed where this engine runs. ' +
      'Install it (Debian/Ubuntu: sudo apt-get install ffmpeg; macOS: brew install ffmpeg; Windows: winget install ffmpeg) and try again.',
    hint: 'Subtitle downloads (format subtitles) work without ffmpeg.',
  });

export async function requireFfmpeg(): Promise<void> {
  if (!(await ffmpegAvailable())) throw ffmpegMissing();
}

export class RenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderError';
  }
}

/**
 * Runs ffmpeg with `args`, feeding `input` (raw PCM) to its stdin when given. Aborting `signal`
 * kills it, and so does the death of this process. Rejects with the last lines ffmpeg wrote when it fails.
 */
export async function runFfmpeg(args: string[], options: { input?: Readable; signal?: AbortSignal } = {}): Promise<void> {
  const child = execaTethered(ffmpegCommand(), ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stdin: options.input ? 'pipe' : 'ignore',
    stdout: 'ignore',
    reject: false,
    cancelSignal: options.signal,
    forceKillAfterDelay: 2000,
  });
  // ffmpeg may stop reading before the end (it has its -t); an EPIPE then is not a failure.
  const feeding = options.input
    ? pipeline(options.input, child.stdin!).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
      })
    : Promise.resolve();
  const [result] = await Promise.all([child, feeding.catch((error: unknown) => {
    child.kill();
    throw error;
  })]);
  options.signal?.throwIfAborted();
  if (result.exitCode !== 0 || result.failed) {
    const stderr = String(result.stderr ?? '');
    // A full disk is the service's condition (507 like every other write), and its message names scratch paths.
    if (/No space left on device|ENOSPC/i.test(stderr)) throw Object.assign(new RenderError('ffmpeg ran out of disk space.'), { code: 'ENOSPC' });
    const lines = stderr.trim().split('\n').slice(-3).join(' ');
    throw new RenderError(`ffmpeg failed: ${lines || result.shortMessage}`);
  }
}
