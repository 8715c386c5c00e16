/**
 * Frames for a vision model: evenly spread over the whole video, fitted into the size box without
 * enlarging, real JPEGs, and each within its byte budget (re-encoded at lower quality when not).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameTimes, sampleFrames, type FrameSampling } from '../../../src/engine/media/frames.js';
import { jpegSize } from '../../support/vision-fixture-server.js';

let dir: string;
let clock: string;
let noise: string;
let numbered: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-frames-'));
  clock = path.join(dir, 'clock.mp4');
  noise = path.join(dir, 'noise.mp4');
  // 40 s of a test pattern with a running counter, 2 frames a second, 1280×720.
  await execa('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=2', '-t', '40', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '20', '-pix_fmt', 'yuv420p', clock]);
  // 40 pictures, one a second, picture n a flat grey of video level 16 + 5n: which picture a frame shows can be read back.
  numbered = path.join(dir, 'numbered.mp4');
  await execa('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'nullsrc=s=64x64:r=1,geq=lum=16+N*5:cb=128:cr=128', '-t', '40', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-g', '30', '-pix_fmt', 'yuv420p', numbered]);
  // 4 s of random noise: the worst case for JPEG size.
  await execa('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'nullsrc=s=1280x720:r=1,geq=lum=random(1)*255:cb=random(2)*255:cr=random(3)*255', '-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p', noise]);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const LOW: FrameSampling = { maxFrames: 12, maxSide: 512, jpegQuality: 5, maxBytes: 80 * 1024 };

describe('frameTimes', () => {
  it('takes the middles of equal stretches across the whole length', () => {
    expect(frameTimes(600, 12)).toEqual([25, 75, 125, 175, 225, 275, 325, 375, 425, 475, 525, 575]);
    expect(frameTimes(600, 32)).toHaveLength(32);
    expect(frameTimes(600, 32)[31]).toBeCloseTo(590.625, 3);
  });

  it('takes one a second at most, none in the last second, and one of a video shorter than a second', () => {
    expect(frameTimes(5, 12)).toEqual([0.5, 1.5, 2.5, 3.5, 4]);
    expect(frameTimes(0.4, 12)).toEqual([0]);
    expect(frameTimes(0, 12)).toEqual([0]);
  });
});

/** ffmpeg runs: seconds each on a loaded machine. */
const FFMPEG_MS = 90_000;

describe('sampleFrames', () => {
  it('writes decodable JPEGs fitted into the box, in time order', async () => {
    const out = fs.mkdtempSync(path.join(dir, 'out-'));
    const frames = await sampleFrames(clock, 40, LOW, out);
    expect(frames.map((frame) => frame.atSeconds)).toEqual(frameTimes(40, 12));
    for (const frame of frames) {
      const jpeg = fs.readFileSync(frame.file);
      expect(jpegSize(jpeg)).toEqual({ width: 512, height: 288 });
      expect(frame.bytes).toBe(jpeg.length);
      expect(frame.bytes).toBeLessThanOrEqual(LOW.maxBytes);
      const decoded = await execa('ffmpeg', ['-v', 'error', '-i', frame.file, '-f', 'null', '-'], { reject: false });
      expect(decoded.exitCode).toBe(0);
    }
    // Distinct pictures: the pattern's counter moves.
    expect(new Set(frames.map((frame) => fs.readFileSync(frame.file).toString('base64'))).size).toBe(12);
  }, FFMPEG_MS);

  it('never enlarges a frame smaller than the box', async () => {
    const out = fs.mkdtempSync(path.join(dir, 'out-'));
    const [frame] = await sampleFrames(clock, 40, { ...LOW, maxFrames: 1, maxSide: 2000 }, out);
    expect(jpegSize(fs.readFileSync(frame!.file))).toEqual({ width: 1280, height: 720 });
  }, FFMPEG_MS);

  it('encodes a frame over its byte budget again at a lower quality, and refuses one that never fits', async () => {
    const out = fs.mkdtempSync(path.join(dir, 'out-'));
    const generous = await sampleFrames(noise, 4, { maxFrames: 2, maxSide: 1024, jpegQuality: 2, maxBytes: 10 * 1024 * 1024 }, out);
    const budget = 120 * 1024;
    expect(generous[0]!.bytes).toBeGreaterThan(budget);
    const fitted = await sampleFrames(noise, 4, { maxFrames: 2, maxSide: 1024, jpegQuality: 2, maxBytes: budget }, fs.mkdtempSync(path.join(dir, 'out-')));
    for (const frame of fitted) {
      expect(frame.bytes).toBeLessThanOrEqual(budget);
      expect(jpegSize(fs.readFileSync(frame.file))).toEqual({ width: 1024, height: 576 });
    }
    await expect(sampleFrames(noise, 4, { maxFrames: 1, maxSide: 1024, jpegQuality: 2, maxBytes: 1024 }, fs.mkdtempSync(path.join(dir, 'out-')))).rejects.toThrow(/over the 1024-byte budget/);
  }, FFMPEG_MS);

  it('decodes a file of few pictures once, keeping the picture shown at each time; seeking lands on the same or the next', async () => {
    /** Which picture of `numbered` a frame shows, from its brightness (a JPEG is full range: 0–255 for 16–235). */
    const pictureOf = async (file: string) => {
      const { stdout } = await execa('ffmpeg', ['-v', 'error', '-i', file, '-vf', 'scale=1:1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-'], { encoding: 'buffer' });
      return Math.round((stdout[0]! * 219) / 255 / 5);
    };
    const sampling = { ...LOW, maxSide: 64 };
    const once = await sampleFrames(numbered, 40, sampling, fs.mkdtempSync(path.join(dir, 'out-')), undefined, { picturesPerSecond: 1 });
    expect(once.map((frame) => frame.atSeconds)).toEqual(frameTimes(40, 12));
    for (const frame of once) expect(await pictureOf(frame.file)).toBe(Math.floor(frame.atSeconds));
    const seeking = await sampleFrames(numbered, 40, sampling, fs.mkdtempSync(path.join(dir, 'out-')));
    for (const frame of seeking) expect([Math.floor(frame.atSeconds), Math.ceil(frame.atSeconds)]).toContain(await pictureOf(frame.file));
    // Past the file's end, decoded whole: the missing pictures are left out.
    const past = await sampleFrames(numbered, 80, { ...sampling, maxFrames: 4 }, fs.mkdtempSync(path.join(dir, 'out-')), undefined, { picturesPerSecond: 1 });
    expect(past.map((frame) => frame.atSeconds)).toEqual([10, 30]);
    expect(await pictureOf(past[1]!.file)).toBe(30);
  }, FFMPEG_MS);

  it('leaves out times past the file\'s real end, and fails when no frame is left', async () => {
    const out = fs.mkdtempSync(path.join(dir, 'out-'));
    const frames = await sampleFrames(clock, 80, { ...LOW, maxFrames: 4 }, out);
    expect(frames.map((frame) => frame.atSeconds)).toEqual([10, 30]);
    await expect(sampleFrames(clock, 400, { ...LOW, maxFrames: 1, maxSide: 64 }, fs.mkdtempSync(path.join(dir, 'out-')))).rejects.toThrow(/took no frame/);
  }, FFMPEG_MS);
});
