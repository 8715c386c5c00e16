/**
 * MP3 encoding with the reference LAME encoder compiled to WebAssembly (wasm-media-encoders):
 * no native dependency, so the embedded engine installs anywhere, and about five times faster
 * than the pure-JS lamejs port this replaced (which made encoding most of a generation's time).
 * Mono only, which is what eSpeak produces.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { createEncoder, type WasmMediaEncoder } from 'wasm-media-encoders';

/** Sample rates MPEG-1/2/2.5 Layer III can carry. */
const MP3_SAMPLE_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
/** Constant bitrates a Layer III frame header can name. */
const MP3_BITRATES = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] as const;
type Mp3Bitrate = (typeof MP3_BITRATES)[number];
type Mp3SampleRate = (typeof MP3_SAMPLE_RATES)[number];
/** LAME's frame size: slices are whole frames. */
const FRAME = 1152;

export interface Mp3Options {
  /** Yield to the event loop after every this many seconds of audio (default 2). */
  sliceSeconds?: number;
  /** Rejects with the signal's reason when aborted between slices. */
  signal?: AbortSignal;
}

/**
 * Encodes mono 16-bit PCM as a CBR MP3. Yields to the event loop between slices, so an hour of
 * speech does not stall a server or let job lease heartbeats lapse; slicing never changes the bytes.
 */
export async function encodeMp3(samples: Int16Array, sampleRate: number, kbps = 64, options: Mp3Options = {}): Promise<Buffer> {
  checkFormat(sampleRate, kbps);
  const encoder = await idleEncoder();
  try {
    encoder.configure({ channels: 1, sampleRate, bitrate: kbps as Mp3Bitrate, outputSampleRate: sampleRate as Mp3SampleRate });
    const sliceFrames = Math.max(1, Math.round(((options.sliceSeconds ?? 2) * sampleRate) / FRAME));
    const slice = new Float32Array(sliceFrames * FRAME);
    const parts: Buffer[] = [];
    for (let start = 0; start < samples.length; start += slice.length) {
      if (start > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        options.signal?.throwIfAborted();
      }
      const end = Math.min(samples.length, start + slice.length);
      for (let i = start; i < end; i++) slice[i - start] = samples[i]! / 32768;
      // The encoder owns the returned bytes until its next call: copy them out.
      parts.push(Buffer.from(encoder.encode([slice.subarray(0, end - start)])));
    }
    parts.push(Buffer.from(encoder.finalize()));
    return Buffer.concat(parts);
  } finally {
    idle.push(encoder);
  }
}

function checkFormat(sampleRate: number, kbps: number): void {
  if (!(MP3_SAMPLE_RATES as readonly number[]).includes(sampleRate)) {
    throw new RangeError(`encodeMp3: MP3 cannot carry ${sampleRate} Hz (use one of ${MP3_SAMPLE_RATES.join(', ')})`);
  }
  if (!(MP3_BITRATES as readonly number[]).includes(kbps)) {
    throw new RangeError(`encodeMp3: a constant bitrate is one of ${MP3_BITRATES.join(', ')} kbps, got ${kbps}`);
  }
}

/**
 * Encoders are stateful, and encodes interleave (each yields between slices): every encode takes
 * an idle encoder or makes one from the packaged wasm, compiled once, and puts it back when done.
 */
const idle: WasmMediaEncoder<'audio/mpeg'>[] = [];
let compiled: Promise<WebAssembly.Module> | undefined;

async function idleEncoder(): Promise<WasmMediaEncoder<'audio/mpeg'>> {
  const ready = idle.pop();
  if (ready) return ready;
  compiled ??= fs.promises.readFile(createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3'))
    .then((bytes) => WebAssembly.compile(bytes))
    .catch((error: unknown) => {
      compiled = undefined;
      throw error;
    });
  return createEncoder('audio/mpeg', await compiled);
}
