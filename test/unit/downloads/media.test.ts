import { describe, expect, it } from 'vitest';
import { frameSize, wrapText } from '../../../src/engine/media/picture.js';
import { transcriptToSrt } from '../../../src/engine/media/subtitles.js';

describe('rendered media helpers', () => {
  it('sizes frames at the exact height: 16:9, or 9:16 for shorts, with even sides', () => {
    expect([360, 480, 720, 1080].map((height) => frameSize(height, false))).toEqual([
      { width: 640, height: 360 },
      { width: 854, height: 480 },
      { width: 1280, height: 720 },
      { width: 1920, height: 1080 },
    ]);
    expect([360, 720, 1080].map((height) => frameSize(height, true).width)).toEqual([202, 406, 608]);
  });

  it('wraps a title into at most three lines, with an ellipsis where it is cut', () => {
    expect(wrapText('A short title', 20, 3)).toEqual(['A short title']);
    expect(wrapText('one two three four five six seven', 9, 2)).toEqual(['one two', 'three…']);
    expect(wrapText('Supercalifragilisticexpialidocious', 10, 3)).toEqual(['Supercali…']);
  });

  it('writes the whole transcript, or the cues of a section timed from its start', () => {
    const cues = [
      { start: 1, end: 2.5, text: 'first' },
      { start: 61.25, end: 63, text: 'second' },
    ];
    expect(transcriptToSrt(cues)).toBe('1\n00:00:01,000 --> 00:00:02,500\nfirst\n\n2\n00:01:01,250 --> 00:01:03,000\nsecond\n');
    expect(transcriptToSrt(cues, { start: 62, duration: 10 })).toBe('1\n00:00:00,000 --> 00:00:01,000\nsecond\n');
  });
});
