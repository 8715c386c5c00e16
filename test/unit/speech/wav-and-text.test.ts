import { describe, expect, it } from 'vitest';
import { encodeWav, parseWav, WavFormatError } from '../../../src/engine/speech/index.js';
import { groupIntoSourceWords } from '../../../src/engine/speech/source-words.js';
import { sourcePosition, splitForSynthesis, toEspeakInput } from '../../../src/engine/speech/text-input.js';
import { wordTimingsFromEvents } from '../../../src/engine/speech/word-timings.js';

/** A WAV with an arbitrary encoding, written field by field. */
function rawWav(format: number, channels: number, rate: number, bits: number, data: Buffer): Buffer {
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8, 'ascii');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(format, 20);
  head.writeUInt16LE(channels, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE((rate * channels * bits) / 8, 28);
  head.writeUInt16LE((channels * bits) / 8, 32);
  head.writeUInt16LE(bits, 34);
  head.write('data', 36, 'ascii');
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

describe('WAV', () => {
  it('round-trips 16-bit mono', () => {
    const samples = Int16Array.from([0, 1000, -1000, 32767, -32768]);
    const wav = encodeWav(samples, 22050);
    expect(wav.length).toBe(44 + 10);
    const parsed = parseWav(wav);
    expect(parsed.sampleRate).toBe(22050);
    expect(parsed.channels).toBe(1);
    expect(Array.from(parsed.samples, (s) => Math.round(s * 32768))).toEqual(Array.from(samples));
    expect(parsed.durationSeconds).toBeCloseTo(5 / 22050, 9);
  });

  it('reads float32 stereo (mixed to mono), 24-bit and 8-bit', () => {
    const f = Buffer.alloc(16);
    f.writeFloatLE(0.5, 0);
    f.writeFloatLE(-0.25, 4);
    f.writeFloatLE(1, 8);
    f.writeFloatLE(1, 12);
    expect(Array.from(parseWav(rawWav(3, 2, 48000, 32, f)).samples)).toEqual([0.125, 1]);
    const p24 = Buffer.alloc(3);
    p24.writeIntLE(-4194304, 0, 3);
    expect(parseWav(rawWav(1, 1, 8000, 24, p24)).samples[0]).toBeCloseTo(-0.5, 6);
    expect(parseWav(rawWav(1, 1, 8000, 8, Buffer.from([192]))).samples[0]).toBeCloseTo(0.5, 6);
  });

  it('rejects non-WAV data and compressed encodings', () => {
    expect(() => parseWav(Buffer.from('hello world, not a wav'))).toThrow(WavFormatError);
    expect(() => parseWav(rawWav(2 /* MS ADPCM */, 1, 8000, 4, Buffer.alloc(10)))).toThrow(/unsupported WAV encoding/);
  });
});

describe('eSpeak input escaping', () => {
  it('escapes markup and maps positions back to the source', () => {
    const src = Array.from('<b>x</b> & 😀y [[z]]');
    const mapped = toEspeakInput(src);
    expect(mapped.input).toBe('&lt;b&gt;x&lt;/b&gt; &amp; 😀y [ [z]]');
    expect(Array.from(mapped.input)).toHaveLength(mapped.sourceIndex.length);
    // eSpeak reports 1-based code point positions in the escaped input.
    const pos = (needle: string) => Array.from(mapped.input).indexOf(needle) + 1;
    expect(src[sourcePosition(mapped, pos('x'))]).toBe('x');
    expect(src[sourcePosition(mapped, pos(';'))]).toBe('<'); // inside "&lt;"
    expect(src[sourcePosition(mapped, pos('😀'))]).toBe('😀');
    expect(sourcePosition(mapped, 999)).toBe(-1);
    expect(sourcePosition(mapped, 0)).toBe(-1);
  });

  it('splits long text at sentence ends, else whitespace, else hard', () => {
    const text = Array.from('One two. Three four five. Six seven.');
    const ranges = splitForSynthesis(text, 20);
    expect(ranges.map(([a, b]) => text.slice(a, b).join(''))).toEqual(['One two. ', 'Three four five. ', 'Six seven.']);
    const noSentences = Array.from('aaaa bbbb cccc dddd');
    expect(splitForSynthesis(noSentences, 12).map(([a, b]) => noSentences.slice(a, b).join(''))).toEqual(['aaaa bbbb ', 'cccc dddd']);
    const solid = Array.from('x'.repeat(25));
    expect(splitForSynthesis(solid, 10)).toEqual([[0, 10], [10, 20], [20, 25]]);
    expect(splitForSynthesis([], 10)).toEqual([]);
  });
});

describe('grouping eSpeak words into source words', () => {
  const t = (sourceStart: number, startMs: number, endMs: number) => ({ sourceStart, startMs, endMs, textPosition: 0, length: 0 });

  it('gives each whitespace-separated token one word spanning all its events', () => {
    const text = Array.from('It costs $1,234.50 today.');
    // eSpeak: "It", "costs", then "$", "1,", ",2", "234.50", "34.50" inside the number, then "today".
    const words = groupIntoSourceWords(text, [t(0, 0, 100), t(3, 100, 400), t(9, 400, 600), t(10, 600, 900), t(11, 900, 1200), t(12, 1200, 1500), t(13, 1500, 2000), t(19, 2100, 2500)]);
    expect(words).toEqual([
      { text: 'It', startMs: 0, endMs: 100 },
      { text: 'costs', startMs: 100, endMs: 400 },
      { text: '$1,234.50', startMs: 400, endMs: 2000 },
      { text: 'today.', startMs: 2100, endMs: 2500 },
    ]);
  });

  it('cuts unspaced scripts at event positions, covering all the text', () => {
    const text = Array.from('你好世界，今天');
    const words = groupIntoSourceWords(text, [t(0, 0, 400), t(2, 400, 600), t(3, 600, 900), t(5, 1000, 1300), t(5, 1300, 1350), t(6, 1350, 1600)]);
    expect(words.map((w) => w.text)).toEqual(['你好', '世', '界，', '今', '天']);
    expect(words[3].endMs).toBe(1350); // the repeated position extends the word
    expect(words.map((w) => w.text).join('')).toBe(text.join(''));
  });

  it('attaches an event on whitespace to the token before it', () => {
    const words = groupIntoSourceWords(Array.from('a 😀 b'), [t(0, 0, 100), t(2, 100, 300), t(3, 300, 350), t(5, 400, 500)]);
    expect(words).toEqual([
      { text: 'a', startMs: 0, endMs: 100 },
      { text: '😀', startMs: 100, endMs: 350 },
      { text: 'b', startMs: 400, endMs: 500 },
    ]);
  });
});

describe('word timings from eSpeak events', () => {
  it('ends words at the first pause after their last sound', () => {
    const ev = (type: string, at: number, extra: Partial<{ text_position: number; word_length: number; id: string }> = {}) => ({
      type, audio_position: at, text_position: extra.text_position ?? 0, word_length: extra.word_length ?? 0, id: extra.id,
    });
    const words = wordTimingsFromEvents(
      [
        ev('word', 0, { text_position: 1, word_length: 5 }),
        ev('phoneme', 10, { id: 'h' }),
        ev('phoneme', 184, { id: 'oʊ' }),
        ev('word', 296, { text_position: 7, word_length: 5 }),
        ev('phoneme', 305, { id: '' }), // pause before any sound: ignored
        ev('phoneme', 310, { id: 'w' }),
        ev('phoneme', 700, { id: 'd' }),
        ev('phoneme', 737, { id: '' }),
        ev('phoneme', 887, { id: '' }),
        ev('end', 887),
        ev('word', 887, { text_position: 14, word_length: 4 }),
        ev('word', 887, { text_position: 14, word_length: 4 }), // duplicate (ja/cmn): dropped
        ev('phoneme', 900, { id: 's' }),
      ],
      1000,
    );
    expect(words).toEqual([
      { textPosition: 1, length: 5, startMs: 0, endMs: 296 },
      { textPosition: 7, length: 5, startMs: 296, endMs: 737 },
      { textPosition: 14, length: 4, startMs: 887, endMs: 1000 },
    ]);
  });
});
