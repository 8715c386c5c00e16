import { beforeAll, describe, expect, it } from 'vitest';
import {
  builtinVoices,
  type EspeakSynthesizer,
  getSynthesizer,
  LANG_CODE_TO_ESPEAK,
  measurePitchHz,
  synthesize,
  UnknownVoiceError,
} from '../../../src/engine/speech/index.js';
import { rms } from './helpers.js';

const durationOf = (r: { samples: Int16Array; sampleRate: number }) => r.samples.length / r.sampleRate;

let synth: EspeakSynthesizer;
beforeAll(async () => {
  synth = await getSynthesizer();
});

describe('synthesize (eSpeak NG wasm)', () => {
  it('speaks a sentence: audible PCM of plausible length with increasing word timings', async () => {
    const r = await synthesize('Hello world, this is a test.', { voice: 'en-us' });
    expect(r.sampleRate).toBe(22050);
    expect(durationOf(r)).toBeGreaterThan(1);
    expect(durationOf(r)).toBeLessThan(5);
    expect(rms(r.samples)).toBeGreaterThan(0.02);
    expect(r.words.map((w) => w.text)).toEqual(['Hello', 'world,', 'this', 'is', 'a', 'test.']);
    const totalMs = durationOf(r) * 1000;
    for (let i = 0; i < r.words.length; i++) {
      const w = r.words[i];
      expect(w.endMs).toBeGreaterThan(w.startMs);
      expect(w.endMs).toBeLessThanOrEqual(totalMs + 1);
      if (i > 0) {
        expect(w.startMs).toBeGreaterThan(r.words[i - 1].startMs);
        expect(w.startMs).toBeGreaterThanOrEqual(r.words[i - 1].endMs);
      }
    }
    // The comma pause lies between "world" and "this".
    expect(r.words[2].startMs - r.words[1].endMs).toBeGreaterThan(50);
  });

  it('stops a long script at the next piece once its signal is aborted', async () => {
    const controller = new AbortController();
    const script = 'A long story told slowly, sentence after sentence. '.repeat(200);
    const started = synth.synthesize(script, { voice: 'en-us' }, controller.signal);
    setImmediate(() => controller.abort(new Error('worker stopping')));
    await expect(started).rejects.toThrow('worker stopping');
  });

  it('speaks markup characters instead of interpreting them as SSML', async () => {
    const markup = await synth.synthesize('<b>x</b> & y', { voice: 'en-us' });
    const plain = await synth.synthesize('x y', { voice: 'en-us' });
    expect(rms(markup.samples)).toBeGreaterThan(0.02);
    expect(durationOf(markup)).toBeGreaterThan(durationOf(plain) + 0.3);
    // Words are the source's whitespace-separated tokens, markup included.
    expect(markup.words.map((w) => w.text)).toEqual(['<b>x</b>', '&', 'y']);
  });

  it('reads "[[...]]" literally rather than as phoneme input', async () => {
    const literal = await synth.synthesize("[[h@l'oU]]", { voice: 'en-us' });
    const hello = await synth.synthesize('hello', { voice: 'en-us' });
    expect(durationOf(literal)).toBeGreaterThan(durationOf(hello) + 0.3);
  });

  it('reports words as written, through non-ASCII text, numbers and unspaced scripts', async () => {
    const de = await synth.synthesize('Grüße aus München & 😀 Köln', { voice: 'de' });
    const deTexts = de.words.map((w) => w.text);
    expect(deTexts.slice(0, 3)).toEqual(['Grüße', 'aus', 'München']);
    expect(deTexts.at(-1)).toBe('Köln');
    const en = await synth.synthesize('It costs $1,234.50 on 12/05/2024, Dr. Smith said.', { voice: 'en-us' });
    expect(en.words.map((w) => w.text)).toEqual(['It', 'costs', '$1,234.50', 'on', '12/05/2024,', 'Dr.', 'Smith', 'said.']);
    const zhText = '你好世界，今天天气很好';
    const zh = await synth.synthesize(zhText, { voice: 'cmn' });
    expect(zh.words.length).toBeGreaterThan(3);
    expect(zh.words.map((w) => w.text).join('')).toBe(zhText);
    for (let i = 1; i < zh.words.length; i++) expect(zh.words[i].startMs).toBeGreaterThanOrEqual(zh.words[i - 1].endMs);
  });

  it('applies rate and pitch', async () => {
    const text = 'The rain in Spain stays mainly in the plain.';
    const slow = await synth.synthesize(text, { voice: 'en-us', rate: 120 });
    const fast = await synth.synthesize(text, { voice: 'en-us', rate: 300 });
    expect(durationOf(slow)).toBeGreaterThan(durationOf(fast) * 1.8);
    const low = await synth.synthesize(text, { voice: 'en-us', pitch: 10 });
    const high = await synth.synthesize(text, { voice: 'en-us', pitch: 90 });
    expect(measurePitchHz(high.samples, high.sampleRate)!).toBeGreaterThan(measurePitchHz(low.samples, low.sampleRate)! * 1.5);
    // Settings do not leak into the next call. (eSpeak output varies by a few ms from call to call.)
    const again = await synth.synthesize(text, { voice: 'en-us' });
    const normal = await synth.synthesize(text, { voice: 'en-us', rate: 175, pitch: 50 });
    expect(durationOf(again) / durationOf(normal)).toBeCloseTo(1, 1);
    expect(measurePitchHz(again.samples, again.sampleRate)! / measurePitchHz(normal.samples, normal.sampleRate)!).toBeCloseTo(1, 1);
  });

  it('rejects unknown voices and variants', async () => {
    await expect(synth.synthesize('hi', { voice: 'xx-nope' })).rejects.toBeInstanceOf(UnknownVoiceError);
    await expect(synth.synthesize('hi', { voice: 'en-us+nosuchvariant' })).rejects.toThrow(/variant/);
    await expect(synth.synthesize('hi', { voice: 'en-us', rate: Number.NaN })).rejects.toThrow(RangeError);
    expect(synth.hasVoice('en-us+f3')).toBe(true);
  });

  it('returns empty audio for blank text', async () => {
    const r = await synth.synthesize('  \n ', { voice: 'en-us' });
    expect(r.samples.length).toBe(0);
    expect(r.words).toEqual([]);
  });

  it('synthesizes long text piecewise with continuous timings; concurrent calls keep their own settings', async () => {
    const sentence = 'Nobody expected the storm that arrived shortly after noon, with strong winds. ';
    const long = sentence.repeat(26); // ~2,050 characters: two pieces
    const expectedWords = long.trim().split(/\s+/).length;

    const sequentialA = await synth.synthesize(long, { voice: 'en-us+f3', rate: 220 });
    const [a, b] = await Promise.all([
      synth.synthesize(long, { voice: 'en-us+f3', rate: 220 }),
      synth.synthesize('Ein ganz anderer Satz.', { voice: 'de', pitch: 90, rate: 100 }),
    ]);
    // If the German call had slipped in between the pieces of the long one, the
    // later pieces would have a male voice at 100 wpm.
    expect(durationOf(a) / durationOf(sequentialA)).toBeCloseTo(1, 1);
    const lastThird = a.samples.subarray(Math.floor((a.samples.length * 2) / 3));
    expect(measurePitchHz(lastThird, a.sampleRate)!).toBeGreaterThan(170);
    expect(measurePitchHz(b.samples, b.sampleRate)!).toBeGreaterThan(140);
    expect(measurePitchHz(b.samples, b.sampleRate)!).toBeLessThan(170);
    expect(durationOf(b)).toBeGreaterThan(1.5);

    // A short request does not wait behind a long script.
    const finished: string[] = [];
    await Promise.all([
      synth.synthesize(long, { voice: 'en-us' }).then(() => finished.push('long')),
      synth.synthesize('Quick.', { voice: 'en-us' }).then(() => finished.push('short')),
    ]);
    expect(finished).toEqual(['short', 'long']);

    expect(a.words.length).toBe(expectedWords);
    for (let i = 1; i < a.words.length; i++) expect(a.words[i].startMs).toBeGreaterThanOrEqual(a.words[i - 1].endMs);
    expect(a.words.at(-1)!.endMs).toBeLessThanOrEqual(durationOf(a) * 1000 + 1);
    expect(a.words.at(-1)!.endMs).toBeGreaterThan(durationOf(a) * 1000 - 1000);
  });
});

describe('built-in voices against the wasm build', () => {
  it('every catalog voice exists in the build and produces audio', async () => {
    const known = new Set(synth.listVoices().map((v) => v.identifier.split('/').pop()!.toLowerCase()));
    for (const espeakVoice of Object.values(LANG_CODE_TO_ESPEAK)) expect(known.has(espeakVoice)).toBe(true);
    for (const voice of builtinVoices()) {
      expect(synth.hasVoice(voice.espeakVoice)).toBe(true);
      const r = await synth.synthesize('123', { voice: voice.espeakVoice });
      expect(rms(r.samples), voice.voice_id).toBeGreaterThan(0.01);
    }
  });
});
