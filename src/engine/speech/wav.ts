/**
 * Minimal RIFF/WAVE writer and reader.
 *
 * Why: WAV is the one upload format we can decode without ffmpeg, and tests
 * (ours and other modules') need a way to fabricate real audio files.
 */

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_IEEE_FLOAT = 0x0003;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

/** 16-bit PCM mono WAV file holding `samples`. */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  if (!Number.isInteger(sampleRate) || sampleRate <= 0) {
    throw new RangeError(`encodeWav: invalid sample rate ${sampleRate}`);
  }
  const dataBytes = samples.length * 2;
  const out = Buffer.alloc(44 + dataBytes);
  out.write('RIFF', 0, 'ascii');
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write('WAVE', 8, 'ascii');
  out.write('fmt ', 12, 'ascii');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(WAVE_FORMAT_PCM, 20);
  out.writeUInt16LE(1, 22); // channels
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28); // byte rate
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'ascii');
  out.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i], 44 + i * 2);
  return out;
}

export interface DecodedWav {
  /** Mono (channels averaged), normalized to [-1, 1]. */
  samples: Float32Array;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  durationSeconds: number;
}

export class WavFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WavFormatError';
  }
}

/**
 * Parses a PCM (8/16/24/32-bit integer) or IEEE float (32/64-bit) WAV file.
 * Compressed WAV codecs (ADPCM, mu-law, ...) throw WavFormatError so callers
 * can fall back to ffmpeg.
 */
export function parseWav(data: Uint8Array): DecodedWav {
  const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new WavFormatError('not a RIFF/WAVE file');
  }
  let fmt: { format: number; channels: number; sampleRate: number; bits: number; blockAlign: number } | undefined;
  let dataStart = -1;
  let dataLength = 0;
  let pos = 12;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('ascii', pos, pos + 4);
    const size = buf.readUInt32LE(pos + 4);
    const body = pos + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > buf.length) throw new WavFormatError('truncated fmt chunk');
      let format = buf.readUInt16LE(body);
      // WAVE_FORMAT_EXTENSIBLE keeps the real format in the first 2 bytes of the sub-format GUID.
      if (format === WAVE_FORMAT_EXTENSIBLE && size >= 40 && body + 26 <= buf.length) format = buf.readUInt16LE(body + 24);
      fmt = {
        format,
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        blockAlign: buf.readUInt16LE(body + 12),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      dataStart = body;
      // Streamed WAVs sometimes carry a 0 or 0xFFFFFFFF size: take what is there.
      dataLength = size === 0 || size === 0xffffffff ? buf.length - body : Math.min(size, buf.length - body);
      break;
    }
    pos = body + size + (size % 2); // chunks are word-aligned
  }
  if (!fmt) throw new WavFormatError('missing fmt chunk');
  if (dataStart < 0) throw new WavFormatError('missing data chunk');
  const { format, channels, sampleRate, bits } = fmt;
  if (channels < 1 || sampleRate < 1) throw new WavFormatError('invalid channel count or sample rate');
  const bytesPerSample = bits / 8;
  const supported =
    (format === WAVE_FORMAT_PCM && [8, 16, 24, 32].includes(bits)) ||
    (format === WAVE_FORMAT_IEEE_FLOAT && (bits === 32 || bits === 64));
  if (!supported) throw new WavFormatError(`unsupported WAV encoding (format 0x${format.toString(16)}, ${bits}-bit)`);

  const frameBytes = bytesPerSample * channels;
  const frames = Math.floor(dataLength / frameBytes);
  const samples = new Float32Array(frames);
  const read = sampleReader(buf, format, bits);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    const frameStart = dataStart + f * frameBytes;
    for (let c = 0; c < channels; c++) sum += read(frameStart + c * bytesPerSample);
    samples[f] = sum / channels;
  }
  return { samples, sampleRate, channels, bitsPerSample: bits, durationSeconds: frames / sampleRate };
}

function sampleReader(buf: Buffer, format: number, bits: number): (offset: number) => number {
  if (format === WAVE_FORMAT_IEEE_FLOAT) {
    return bits === 32 ? (o) => buf.readFloatLE(o) : (o) => buf.readDoubleLE(o);
  }
  switch (bits) {
    case 8:
      return (o) => (buf[o] - 128) / 128; // 8-bit WAV is unsigned
    case 16:
      return (o) => buf.readInt16LE(o) / 32768;
    case 24:
      return (o) => buf.readIntLE(o, 3) / 8388608;
    default:
      return (o) => buf.readInt32LE(o) / 2147483648;
  }
}
