/**
 * Voice samples made on the spot: WAV and MP3 files of chosen lengths and pitches, so tests
 * never need audio checked into the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { UploadedFile } from '../../src/core/schemas/params.js';
import { encodeMp3, encodeWav } from '../../src/engine/speech/index.js';
import { harmonicTone, toInt16 } from '../unit/speech/helpers.js';

export interface ToneOptions {
  /** Fundamental frequency; 0 makes silence. Default 120 Hz (a low voice). */
  f0?: number;
  sampleRate?: number;
  amplitude?: number;
}

/** A voice-like tone, pulsed four times a second like syllables. */
export function voicePcm(seconds: number, options: ToneOptions = {}): Int16Array {
  const { f0 = 120, sampleRate = 8000, amplitude = 0.5 } = options;
  if (f0 === 0) return new Int16Array(Math.round(seconds * sampleRate));
  const tone = harmonicTone(f0, sampleRate, seconds, amplitude);
  for (let i = 0; i < tone.length; i++) tone[i] *= 0.55 + 0.45 * Math.sin((2 * Math.PI * 4 * i) / sampleRate);
  return toInt16(tone);
}

export function wavSample(seconds: number, options: ToneOptions = {}): Buffer {
  return encodeWav(voicePcm(seconds, options), options.sampleRate ?? 8000);
}

export function mp3Sample(seconds: number, options: ToneOptions = {}): Promise<Buffer> {
  const sampleRate = options.sampleRate ?? 16000;
  return encodeMp3(voicePcm(seconds, { ...options, sampleRate }), sampleRate, 32);
}

/** An upload as the service receives it; the name and declared type may lie on purpose. */
export function upload(data: Buffer, filename = 'sample.wav', contentType = 'audio/wav'): UploadedFile {
  return { filename, contentType, data };
}

/** A PNG header: a real file that is not audio. */
export const pngBytes = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.alloc(64),
]);

/** Files under a directory, recursively (empty when it does not exist). */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
