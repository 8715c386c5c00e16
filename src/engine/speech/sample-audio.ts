/**
 * Validation of uploaded voice samples: the format is judged by content (not
 * by file name or declared type), the duration by parsing the stream.
 */
import { fileTypeFromBuffer } from 'file-type';
import { parseBuffer } from 'music-metadata';
import { decodeToPcm } from './decode.js';
import type { SampleFormat } from './sample-format.js';

export type { SampleFormat };

export const ACCEPTED_SAMPLE_FORMATS = 'MP3, WAV, M4A, OGG, WEBM';

export type AudioSampleErrorReason = 'unsupported_format' | 'unreadable' | 'no_duration';

export class AudioSampleError extends Error {
  constructor(
    readonly reason: AudioSampleErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'AudioSampleError';
  }
}

export interface AudioSampleInfo {
  format: SampleFormat;
  /** Canonical audio MIME type for the format (e.g. "audio/webm" even if detected as video/webm). */
  mime: string;
  /** What content sniffing reported, e.g. "video/webm" or "audio/x-m4a". */
  detectedMime: string;
  durationSeconds: number;
}

const CANONICAL_MIME: Record<SampleFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
};

/**
 * file-type extension → our format. MP4-family files come as m4a
 * (audio/x-m4a), m4b/f4a (audio/mp4) or plain mp4 (video/mp4); Ogg as
 * ogg (Vorbis), opus, oga (FLAC) or spx (Speex); WebM always as video/webm.
 */
const FORMAT_BY_EXT: Record<string, SampleFormat> = {
  mp3: 'mp3',
  wav: 'wav',
  m4a: 'm4a',
  m4b: 'm4a',
  f4a: 'm4a',
  mp4: 'm4a',
  ogg: 'ogg',
  opus: 'ogg',
  oga: 'ogg',
  spx: 'ogg',
  webm: 'webm',
};

/** Extra duration source for streams whose headers carry none (e.g. MediaRecorder WebM). */
export type DurationFallback = (data: Buffer, format: SampleFormat) => Promise<number | undefined>;

/** Default fallback: decode with ffmpeg when it is installed and count the samples. */
export const ffmpegDuration: DurationFallback = async (data, format) => {
  const pcm = await decodeToPcm(data, format);
  return pcm ? pcm.samples.length / pcm.sampleRate : undefined;
};

/**
 * Identifies and measures an uploaded sample. Throws AudioSampleError:
 * `unsupported_format` (not one of MP3/WAV/M4A/OGG/WEBM), `unreadable`
 * (right signature but the stream cannot be parsed) or `no_duration`.
 * When the metadata has no duration, `options.durationFallback` (default:
 * decoding with ffmpeg if installed; `false` to disable) is consulted.
 */
export async function inspectAudioSample(
  data: Buffer,
  options: { durationFallback?: DurationFallback | false } = {},
): Promise<AudioSampleInfo> {
  const durationFallback = options.durationFallback === undefined ? ffmpegDuration : options.durationFallback;
  if (data.length === 0) {
    throw new AudioSampleError('unsupported_format', `The audio sample is empty. Accepted formats: ${ACCEPTED_SAMPLE_FORMATS}.`);
  }
  const detected = await fileTypeFromBuffer(data);
  const format = detected ? FORMAT_BY_EXT[detected.ext] : undefined;
  if (!detected || !format) {
    const what = detected
      ? `a ${detected.ext.toUpperCase()} file (${detected.mime})`
      : looksLikeText(data)
        ? 'a text file'
        : 'not a recognizable audio file';
    throw new AudioSampleError(
      'unsupported_format',
      `The audio sample is ${what}. Accepted formats: ${ACCEPTED_SAMPLE_FORMATS}.`,
    );
  }

  let duration: number | undefined;
  try {
    const metadata = await parseBuffer(data, { mimeType: detected.mime, size: data.length }, { duration: true, skipCovers: true });
    duration = metadata.format.duration;
  } catch (err) {
    throw new AudioSampleError(
      'unreadable',
      `The audio sample looks like ${format.toUpperCase()} but could not be read (${errorText(err)}); it may be truncated or corrupt. Accepted formats: ${ACCEPTED_SAMPLE_FORMATS}.`,
    );
  }
  if (!isPositive(duration) && durationFallback) {
    try {
      duration = await durationFallback(data, format);
    } catch (err) {
      // The headers gave no duration and the stream does not decode either.
      throw new AudioSampleError(
        'unreadable',
        `The audio sample looks like ${format.toUpperCase()} but could not be decoded (${errorText(err)}); it may be truncated or corrupt. Accepted formats: ${ACCEPTED_SAMPLE_FORMATS}.`,
      );
    }
  }
  if (!isPositive(duration)) {
    throw new AudioSampleError(
      'no_duration',
      `Could not determine the duration of the ${format.toUpperCase()} sample (it may contain no audio). Re-export it as ${ACCEPTED_SAMPLE_FORMATS}.`,
    );
  }
  return { format, mime: CANONICAL_MIME[format], detectedMime: detected.mime, durationSeconds: duration };
}

function isPositive(n: number | undefined): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0;
}

/** Heuristic for a friendlier message: valid UTF-8 without control bytes other than whitespace. */
function looksLikeText(data: Buffer): boolean {
  const head = data.subarray(0, 4096);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.length === data.length ? head : trimPartialUtf8(head));
  } catch {
    return false;
  }
  return !head.some((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
}

/** Drops an incomplete multi-byte sequence at the end of a prefix. */
function trimPartialUtf8(buf: Buffer): Buffer {
  let end = buf.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const b = buf[end - back];
    if ((b & 0xc0) !== 0x80) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return need > back ? buf.subarray(0, end - back) : buf;
    }
  }
  return buf;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
