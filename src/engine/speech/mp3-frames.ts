/**
 * MPEG audio layer III frames: reading a provider's MP3 into its frames (ID3 tags and the
 * Xing/Info header frame left out) so several answers can be joined into one stream at frame
 * boundaries, with each part's exact duration for offsetting its timings.
 */

const V1_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const V2_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
/** Sample rates by the header's version bits (0 = MPEG 2.5, 2 = MPEG 2, 3 = MPEG 1). */
const RATES: Record<number, number[]> = { 0: [11025, 12000, 8000], 2: [22050, 24000, 16000], 3: [44100, 48000, 32000] };

export interface Mp3Frames {
  /** The audio frames, back to back. */
  data: Buffer;
  frames: number;
  sampleRate: number;
  channels: 1 | 2;
  durationSeconds: number;
}

export class Mp3FormatError extends Error {
  override readonly name = 'Mp3FormatError';
}

interface FrameHeader {
  length: number;
  samples: number;
  sampleRate: number;
  channels: 1 | 2;
  mpeg1: boolean;
}

function readHeader(bytes: Buffer, at: number): FrameHeader | undefined {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return undefined;
  const version = (bytes[at + 1]! >> 3) & 3;
  const layer = (bytes[at + 1]! >> 1) & 3;
  const bitrateIndex = bytes[at + 2]! >> 4;
  const rateIndex = (bytes[at + 2]! >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const mpeg1 = version === 3;
  const sampleRate = RATES[version]![rateIndex]!;
  const kbps = (mpeg1 ? V1_KBPS : V2_KBPS)[bitrateIndex]!;
  const padding = (bytes[at + 2]! >> 1) & 1;
  const length = Math.floor(((mpeg1 ? 144_000 : 72_000) * kbps) / sampleRate) + padding;
  return { length, samples: mpeg1 ? 1152 : 576, sampleRate, channels: bytes[at + 3]! >> 6 === 3 ? 1 : 2, mpeg1 };
}

/** A frame that carries the Xing/Info (or VBRI) header: no audio of its own. */
function isInfoFrame(bytes: Buffer, at: number, header: FrameHeader): boolean {
  const sideInfo = header.mpeg1 ? (header.channels === 1 ? 17 : 32) : header.channels === 1 ? 9 : 17;
  const tag = bytes.toString('latin1', at + 4 + sideInfo, at + 8 + sideInfo);
  return tag === 'Xing' || tag === 'Info' || bytes.toString('latin1', at + 36, at + 40) === 'VBRI';
}

function id3v2Length(bytes: Buffer): number {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return 10 + size + (bytes[5]! & 0x10 ? 10 : 0);
}

/** The frames of an MP3 file; throws Mp3FormatError when it holds none or changes format midway. */
export function readMp3Frames(bytes: Buffer): Mp3Frames {
  let at = id3v2Length(bytes);
  const parts: Buffer[] = [];
  let first: FrameHeader | undefined;
  let frames = 0;
  for (let header = readHeader(bytes, at); header && at + header.length <= bytes.length; header = readHeader(bytes, at)) {
    if (first && (header.sampleRate !== first.sampleRate || header.channels !== first.channels)) {
      throw new Mp3FormatError(`the MP3 changes from ${first.sampleRate} Hz to ${header.sampleRate} Hz midway`);
    }
    if (!(frames === 0 && parts.length === 0 && !first && isInfoFrame(bytes, at, header))) {
      parts.push(bytes.subarray(at, at + header.length));
      frames += 1;
    }
    first ??= header;
    at += header.length;
  }
  if (!first || frames === 0) throw new Mp3FormatError('no MPEG layer III frames found');
  return { data: Buffer.concat(parts), frames, sampleRate: first.sampleRate, channels: first.channels, durationSeconds: (frames * first.samples) / first.sampleRate };
}

/** One stream from several of the same format, in order. */
export function joinMp3(parts: readonly Mp3Frames[]): Mp3Frames {
  const [head] = parts;
  if (!head) throw new Mp3FormatError('nothing to join');
  for (const part of parts) {
    if (part.sampleRate !== head.sampleRate || part.channels !== head.channels) throw new Mp3FormatError('the parts differ in sample rate or channels');
  }
  const frames = parts.reduce((sum, part) => sum + part.frames, 0);
  return {
    data: Buffer.concat(parts.map((part) => part.data)),
    frames,
    sampleRate: head.sampleRate,
    channels: head.channels,
    durationSeconds: parts.reduce((sum, part) => sum + part.durationSeconds, 0),
  };
}
