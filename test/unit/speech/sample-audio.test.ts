import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { parseBuffer } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import {
  AudioSampleError,
  encodeMp3,
  encodeWav,
  ffmpegAvailable,
  inspectAudioSample,
} from '../../../src/engine/speech/index.js';
import { harmonicTone, pseudoRandomBytes, toInt16 } from './helpers.js';

const hasFfmpeg = await ffmpegAvailable();

const toneWav = (seconds: number, rate = 16000) => encodeWav(toInt16(harmonicTone(180, rate, seconds, 0.5)), rate);

async function rejection(data: Buffer, options?: Parameters<typeof inspectAudioSample>[1]): Promise<AudioSampleError> {
  const err = await inspectAudioSample(data, options).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AudioSampleError);
  return err as AudioSampleError;
}

/** Encodes a WAV with ffmpeg (`outArgs` choose codec/container) and returns the file's bytes. */
async function ffmpegEncode(wav: Buffer, outArgs: string[], ext: string): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'speech-test-'));
  try {
    await writeFile(join(dir, 'in.wav'), wav);
    await execa('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', join(dir, 'in.wav'), ...outArgs, join(dir, `out.${ext}`)]);
    return await readFile(join(dir, `out.${ext}`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('inspectAudioSample', () => {
  it('accepts a WAV and reports its duration', async () => {
    const info = await inspectAudioSample(toneWav(2.5));
    expect(info).toMatchObject({ format: 'wav', mime: 'audio/wav', detectedMime: 'audio/wav' });
    expect(info.durationSeconds).toBeCloseTo(2.5, 2);
  });

  it('accepts an MP3 and reports its duration', async () => {
    const mp3 = await encodeMp3(toInt16(harmonicTone(180, 22050, 4, 0.5)), 22050);
    const info = await inspectAudioSample(mp3);
    expect(info.format).toBe('mp3');
    expect(info.mime).toBe('audio/mpeg');
    expect(info.durationSeconds).toBeGreaterThan(3.9);
    expect(info.durationSeconds).toBeLessThan(4.2); // encoder padding adds a frame or two
  });

  it('rejects random bytes, naming the accepted formats', async () => {
    const err = await rejection(pseudoRandomBytes(8000));
    expect(err.reason).toBe('unsupported_format');
    expect(err.message).toMatch(/not a recognizable audio file/);
    expect(err.message).toContain('MP3, WAV, M4A, OGG, WEBM');
  });

  it('rejects a text file as such', async () => {
    const err = await rejection(Buffer.from('Hello, this is my voice sample transcript.\nLine two — ünïcödé\n'));
    expect(err.reason).toBe('unsupported_format');
    expect(err.message).toMatch(/is a text file/);
    expect(err.message).toContain('MP3, WAV, M4A, OGG, WEBM');
  });

  it('rejects other recognizable formats by name, and empty uploads', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ); // a 1x1 PNG
    const err = await rejection(png);
    expect(err.reason).toBe('unsupported_format');
    expect(err.message).toMatch(/PNG/);
    expect((await rejection(Buffer.alloc(0))).message).toMatch(/empty/);
  });

  it('reports a WAV without audio or with a broken header', async () => {
    expect((await rejection(encodeWav(new Int16Array(0), 16000))).reason).toBe('no_duration');
    const broken = await rejection(toneWav(1).subarray(0, 30));
    expect(broken.reason).toBe('unreadable');
    expect(broken.message).toMatch(/WAV.*could not be decoded/);
  });

  describe.skipIf(!hasFfmpeg)('formats produced by ffmpeg', () => {
    const wav = toneWav(3);
    it.each([
      ['m4a', ['-c:a', 'aac', '-b:a', '64k'], 'm4a', 'audio/x-m4a'],
      ['mp4', ['-c:a', 'aac', '-b:a', '64k', '-f', 'mp4'], 'm4a', 'video/mp4'],
      ['ogg', ['-c:a', 'libvorbis'], 'ogg', 'audio/ogg'],
      ['opus', ['-c:a', 'libopus', '-f', 'ogg'], 'ogg', 'audio/ogg; codecs=opus'],
      ['webm', ['-c:a', 'libopus'], 'webm', 'video/webm'],
    ])('accepts %s', async (ext, args, format, detectedMime) => {
      const data = await ffmpegEncode(wav, args, ext);
      const info = await inspectAudioSample(data);
      expect(info.format).toBe(format);
      expect(info.detectedMime).toBe(detectedMime);
      expect(info.durationSeconds).toBeGreaterThan(2.9);
      expect(info.durationSeconds).toBeLessThan(3.15);
    });

    it('measures streamed WebM without a duration header by decoding it', async () => {
      // Like MediaRecorder output: written to a pipe, so no Duration element.
      const { stdout } = await execa('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', 'pipe:0', '-c:a', 'libopus', '-f', 'webm', 'pipe:1'], {
        input: wav,
        encoding: 'buffer',
      });
      const webm = Buffer.from(stdout);
      expect((await parseBuffer(webm, { mimeType: 'video/webm' }, { duration: true })).format.duration).toBeUndefined();
      const info = await inspectAudioSample(webm);
      expect(info.format).toBe('webm');
      expect(info.durationSeconds).toBeCloseTo(3, 1);
      expect((await rejection(webm, { durationFallback: false })).reason).toBe('no_duration');
    });
  });
});
