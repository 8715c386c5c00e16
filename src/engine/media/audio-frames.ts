/**
 * The two compressed audio formats downloads carry, as frame streams: AAC in ADTS frames (for
 * the MP4) and MP3 frames. Each frame is a self-contained packet here — AAC never shares bits
 * between frames, and the MP3 encoder runs without its bit reservoir — so frames encoded once can
 * be laid out again in another order (`stitch.ts`).
 */

export interface FrameCodec {
  name: 'aac' | 'mp3';
  /** PCM samples each frame decodes to. */
  samplesPerFrame: number;
  /** Samples the encoder delays its input by (priming), which nothing trims after a stream copy. */
  delay: number;
  /** ffmpeg output options producing a bare frame stream of this codec. */
  encoderArgs: string[];
  split(data: Buffer): Buffer[];
}

/**
 * ffmpeg's native AAC encoder primes with 1024 samples. Constant quality rather than an average
 * bitrate: pieces are encoded among silence, which would hand their frames the bits the silence
 * did not use.
 */
export const AAC_FRAMES: FrameCodec = {
  name: 'aac',
  samplesPerFrame: 1024,
  delay: 1024,
  encoderArgs: ['-c:a', 'aac', '-aac_coder', 'fast', '-q:a', '0.6', '-f', 'adts'],
  split: splitAdts,
};

/** LAME at 22,050 Hz writes MPEG-2 Layer III (576 samples a frame) with 576 + 529 samples of delay. */
export const MP3_FRAMES: FrameCodec = {
  name: 'mp3',
  samplesPerFrame: 576,
  delay: 1105,
  encoderArgs: ['-c:a', 'libmp3lame', '-b:a', '40k', '-reservoir', '0', '-write_xing', '0', '-id3v2_version', '0', '-f', 'mp3'],
  split: splitMp3,
};

export function splitAdts(data: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at + 7 <= data.length; ) {
    if (data[at] !== 0xff || (data[at + 1]! & 0xf0) !== 0xf0) throw new Error(`ADTS stream lost sync at byte ${at}`);
    const length = ((data[at + 3]! & 0x03) << 11) | (data[at + 4]! << 3) | (data[at + 5]! >> 5);
    if (length < 7 || at + length > data.length) throw new Error(`ADTS frame at byte ${at} runs past the end`);
    frames.push(data.subarray(at, at + length));
    at += length;
  }
  return frames;
}

const MP3_KBPS = {
  mpeg1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  mpeg2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MP3_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** Layer III frames only (what LAME writes); anything else is a broken stream. */
export function splitMp3(data: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  for (let at = 0; at + 4 <= data.length; ) {
    const [b0, b1, b2] = [data[at]!, data[at + 1]!, data[at + 2]!];
    const version = (b1 >> 3) & 3;
    const layer = (b1 >> 1) & 3;
    const kbps = (version === 3 ? MP3_KBPS.mpeg1 : MP3_KBPS.mpeg2)[b2 >> 4];
    const rate = MP3_RATES[version]?.[(b2 >> 2) & 3];
    if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0 || layer !== 1 || !kbps || !rate) throw new Error(`MP3 stream lost sync at byte ${at}`);
    const length = Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / rate) + ((b2 >> 1) & 1);
    if (at + length > data.length) throw new Error(`MP3 frame at byte ${at} runs past the end`);
    frames.push(data.subarray(at, at + length));
    at += length;
  }
  return frames;
}
