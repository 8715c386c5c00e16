/**
 * Decoding uploaded samples to PCM for analysis.
 *
 * WAV (integer PCM / float) is parsed natively. Everything else needs
 * `ffmpeg` on PATH (or at $FFMPEG_PATH): there is no pure-JS decoder among our
 * dependencies, and adding MP3/AAC/Opus/Vorbis decoders is not worth it for a
 * pitch estimate. Without ffmpeg `decodeToPcm` returns null and callers
 * degrade (voice profiles then have no measured pitch).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { execaTethered } from '../tethered-process.js';
import type { SampleFormat } from './sample-format.js';
import { parseWav, WavFormatError } from './wav.js';

/** Sample rate of ffmpeg output: plenty for pitch (F0 < 1 kHz) and 4x less data than 44.1 kHz. */
export const FFMPEG_DECODE_RATE = 16000;
const FFMPEG_TIMEOUT_MS = 60_000;

export interface DecodedPcm {
  /** Mono samples in [-1, 1]. */
  samples: Float32Array;
  sampleRate: number;
  decoder: 'wav' | 'ffmpeg';
}

export class AudioDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AudioDecodeError';
  }
}

/** The ffmpeg to run: $FFMPEG_PATH, else `ffmpeg` from PATH. */
export function ffmpegCommand(): string {
  return process.env.FFMPEG_PATH || 'ffmpeg';
}

let ffmpegProbe: Promise<boolean> | undefined;
let ffmpegFound: boolean | undefined;

/** Whether ffmpeg can be run (checked once per process). */
export function ffmpegAvailable(): Promise<boolean> {
  ffmpegProbe ??= execa(ffmpegCommand(), ['-hide_banner', '-version'], { timeout: 10_000 }).then(
    () => (ffmpegFound = true),
    () => (ffmpegFound = false),
  );
  return ffmpegProbe;
}

/** What the probe found, without waiting for it (it is started if need be): undefined until it has answered. */
export function ffmpegProbed(): boolean | undefined {
  void ffmpegAvailable();
  return ffmpegFound;
}

/**
 * Mono PCM of an uploaded sample, or null when its format needs ffmpeg and
 * ffmpeg is not installed. `maxSeconds` limits how much is decoded.
 * Throws AudioDecodeError if the data cannot be decoded.
 */
export async function decodeToPcm(
  data: Uint8Array,
  format: SampleFormat,
  options: { maxSeconds?: number } = {},
): Promise<DecodedPcm | null> {
  if (format === 'wav') {
    try {
      const wav = parseWav(data);
      const limit = options.maxSeconds ? Math.ceil(options.maxSeconds * wav.sampleRate) : wav.samples.length;
      return { samples: wav.samples.subarray(0, limit), sampleRate: wav.sampleRate, decoder: 'wav' };
    } catch (err) {
      // Compressed WAV codecs (ADPCM, mu-law...) are left to ffmpeg.
      if (!(err instanceof WavFormatError)) throw err;
      if (!(await ffmpegAvailable())) throw new AudioDecodeError(`cannot decode WAV: ${err.message}`);
    }
  }
  if (!(await ffmpegAvailable())) return null;
  return decodeWithFfmpeg(data, format, options.maxSeconds);
}

async function decodeWithFfmpeg(data: Uint8Array, format: SampleFormat, maxSeconds?: number): Promise<DecodedPcm> {
  // A file rather than stdin: MP4/M4A often keep their index (moov) at the end, which needs seeking.
  const dir = await mkdtemp(join(tmpdir(), 'tubekit-decode-'));
  const input = join(dir, `sample.${format}`);
  try {
    await writeFile(input, data);
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', input];
    if (maxSeconds) args.push('-t', String(maxSeconds));
    args.push('-vn', '-f', 's16le', '-acodec', 'pcm_s16le', '-ac', '1', '-ar', String(FFMPEG_DECODE_RATE), 'pipe:1');
    const result = await execaTethered(ffmpegCommand(), args, {
      encoding: 'buffer',
      timeout: FFMPEG_TIMEOUT_MS,
      maxBuffer: 512 * 1024 * 1024,
      reject: false,
    });
    if (result.exitCode !== 0 || result.failed) {
      const stderr = Buffer.from(result.stderr)
        .toString('utf8')
        .replaceAll(input, 'input') // no temp paths in user-facing messages
        .replace(/\[[\w:]+ @ 0x[0-9a-f]+\]\s*/g, '')
        .trim()
        .split('\n')
        .slice(-2)
        .join(' ');
      throw new AudioDecodeError(`ffmpeg could not decode the ${format.toUpperCase()} sample: ${stderr || result.shortMessage}`);
    }
    const bytes = result.stdout as Uint8Array;
    const count = Math.floor(bytes.byteLength / 2);
    const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
    const samples = new Float32Array(count);
    for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true) / 32768;
    return { samples, sampleRate: FFMPEG_DECODE_RATE, decoder: 'ffmpeg' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
