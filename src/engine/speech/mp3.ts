/**
 * MP3 encoding with lamejs (pure JS LAME port): no native dependency, so the
 * embedded engine installs anywhere. Mono only, which is what eSpeak produces.
 */
import { Mp3Encoder } from '@breezystack/lamejs';

/** Sample rates MPEG-1/2/2.5 Layer III can carry. */
const MP3_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];
/** LAME's frame size; feeding whole frames avoids internal re-buffering. */
const BLOCK = 1152;

/** Encodes mono 16-bit PCM as a CBR MP3 (`kbps` is clamped by LAME to what the sample rate allows). */
export function encodeMp3(samples: Int16Array, sampleRate: number, kbps = 64): Buffer {
  const encoder = createEncoder(sampleRate, kbps);
  const parts: Buffer[] = [];
  for (let i = 0; i < samples.length; i += BLOCK) pushFrame(parts, encoder.encodeBuffer(samples.subarray(i, i + BLOCK)));
  pushFrame(parts, encoder.flush());
  return Buffer.concat(parts);
}

/**
 * Like encodeMp3 (same bytes), but yields to the event loop after every `sliceSeconds` of audio.
 * lamejs runs ~40x real time, so an hour of speech is over a minute of CPU: done in one go it
 * would stall a server and let job lease heartbeats lapse. Rejects with the signal's reason when aborted.
 */
export async function encodeMp3Async(
  samples: Int16Array,
  sampleRate: number,
  kbps = 64,
  sliceSeconds = 2,
  signal?: AbortSignal,
): Promise<Buffer> {
  const encoder = createEncoder(sampleRate, kbps);
  const blocksPerSlice = Math.max(1, Math.round((sliceSeconds * sampleRate) / BLOCK));
  const parts: Buffer[] = [];
  for (let i = 0, blocks = 0; i < samples.length; i += BLOCK, blocks++) {
    if (blocks > 0 && blocks % blocksPerSlice === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
    pushFrame(parts, encoder.encodeBuffer(samples.subarray(i, i + BLOCK)));
  }
  pushFrame(parts, encoder.flush());
  return Buffer.concat(parts);
}

function createEncoder(sampleRate: number, kbps: number): Mp3Encoder {
  if (!MP3_SAMPLE_RATES.includes(sampleRate)) {
    throw new RangeError(`encodeMp3: MP3 cannot carry ${sampleRate} Hz (use one of ${MP3_SAMPLE_RATES.join(', ')})`);
  }
  if (!Number.isInteger(kbps) || kbps < 8 || kbps > 320) {
    throw new RangeError(`encodeMp3: bitrate must be an integer from 8 to 320 kbps, got ${kbps}`);
  }
  return new Mp3Encoder(1, sampleRate, kbps);
}

function pushFrame(parts: Buffer[], frame: Int8Array | Uint8Array): void {
  if (frame.length > 0) parts.push(Buffer.from(frame));
}
