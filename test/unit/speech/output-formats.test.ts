import { parseBuffer } from 'music-metadata';
import { describe, expect, it } from 'vitest';
import { encodeMp3, formatSrtTimestamp, synthesize, wordsToSrt } from '../../../src/engine/speech/index.js';
import { harmonicTone, toInt16 } from './helpers.js';

describe('encodeMp3', () => {
  it('turns synthesized speech into an MPEG stream of the same duration', async () => {
    const speech = await synthesize('Hello world, this is a test of the MP3 encoder.', { voice: 'en-us' });
    const pcmSeconds = speech.samples.length / speech.sampleRate;
    const mp3 = await encodeMp3(speech.samples, speech.sampleRate);
    const meta = await parseBuffer(mp3, { mimeType: 'audio/mpeg', size: mp3.length }, { duration: true });
    expect(meta.format.container).toBe('MPEG');
    expect(meta.format.codec).toMatch(/Layer 3/);
    expect(meta.format.sampleRate).toBe(22050);
    expect(meta.format.numberOfChannels).toBe(1);
    expect(meta.format.duration!).toBeGreaterThan(pcmSeconds * 0.8);
    expect(meta.format.duration!).toBeLessThan(pcmSeconds * 1.2);
    // 64 kbps CBR: ~8 KB per second.
    expect(mp3.length / pcmSeconds).toBeGreaterThan(6000);
    expect(mp3.length / pcmSeconds).toBeLessThan(10000);
  });

  it('honours the bitrate and rejects impossible sample rates', async () => {
    const pcm = toInt16(harmonicTone(200, 44100, 2, 0.5));
    const low = await encodeMp3(pcm, 44100, 32);
    const high = await encodeMp3(pcm, 44100, 128);
    expect(high.length).toBeGreaterThan(low.length * 3);
    const meta = await parseBuffer(high, { mimeType: 'audio/mpeg' }, { duration: true });
    expect(meta.format.bitrate).toBe(128000);
    await expect(encodeMp3(pcm, 44000)).rejects.toThrow(RangeError);
    await expect(encodeMp3(pcm, 44100, 50)).rejects.toThrow(RangeError);
  });

  it('encodes the same bytes whatever the slice, and concurrent encodes do not mix', async () => {
    const pcm = toInt16(harmonicTone(200, 22050, 3.3, 0.5));
    const other = toInt16(harmonicTone(330, 22050, 2.1, 0.3));
    const whole = await encodeMp3(pcm, 22050, 64, { sliceSeconds: 10 });
    const [sliced, otherSliced] = await Promise.all([
      encodeMp3(pcm, 22050, 64, { sliceSeconds: 0.1 }),
      encodeMp3(other, 22050, 64, { sliceSeconds: 0.1 }),
    ]);
    expect(sliced.equals(whole)).toBe(true);
    expect(otherSliced.equals(await encodeMp3(other, 22050, 64))).toBe(true);
  });

  it('stops between slices when its signal aborts', async () => {
    const pcm = toInt16(harmonicTone(200, 22050, 3, 0.5));
    const stop = new AbortController();
    const encoding = encodeMp3(pcm, 22050, 64, { sliceSeconds: 0.5, signal: stop.signal });
    stop.abort(new Error('stopped'));
    await expect(encoding).rejects.toThrow('stopped');
  });
});

describe('wordsToSrt', () => {
  it('formats timestamps as HH:MM:SS,mmm', () => {
    expect(formatSrtTimestamp(0)).toBe('00:00:00,000');
    expect(formatSrtTimestamp(3_723_004)).toBe('01:02:03,004');
    expect(formatSrtTimestamp(59_999.6)).toBe('00:01:00,000');
    expect(formatSrtTimestamp(-5)).toBe('00:00:00,000');
  });

  it('writes one numbered cue per word', () => {
    const srt = wordsToSrt([
      { text: 'Hello', startMs: 0, endMs: 420 },
      { text: '  ', startMs: 420, endMs: 430 },
      { text: 'world,', startMs: 430, endMs: 1_005 },
      { text: 'again', startMs: 61_000, endMs: 60_900 },
    ]);
    expect(srt).toBe(
      '1\n00:00:00,000 --> 00:00:00,420\nHello\n\n' +
        '2\n00:00:00,430 --> 00:00:01,005\nworld,\n\n' +
        '3\n00:01:01,000 --> 00:01:01,000\nagain\n',
    );
    expect(wordsToSrt([])).toBe('');
  });

  it('round-trips synthesized word timings', async () => {
    const speech = await synthesize('One two three four five.', { voice: 'en-us' });
    const cues = wordsToSrt(speech.words).trim().split('\n\n');
    expect(cues).toHaveLength(5);
    cues.forEach((cue, i) => {
      const [num, times, text] = cue.split('\n');
      expect(num).toBe(String(i + 1));
      expect(times).toMatch(/^\d\d:\d\d:\d\d,\d\d\d --> \d\d:\d\d:\d\d,\d\d\d$/);
      expect(text).toBe(['One', 'two', 'three', 'four', 'five.'][i]);
    });
  });
});
