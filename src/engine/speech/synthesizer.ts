/**
 * Offline text-to-speech with eSpeak NG, compiled to JavaScript/WebAssembly
 * (`@echogarden/espeak-ng-emscripten`).
 *
 * Notes on the package, learned by probing it:
 * - The default export is an Emscripten factory; awaiting it reads the 24 MB
 *   `espeak-ng.data` into an in-memory FS (~0.1 s). `new m.eSpeakNGWorker()`
 *   then initializes eSpeak (22050 Hz, 16-bit mono).
 * - `synthesize()` is synchronous: it runs the whole text and calls back per
 *   audio chunk. Voice, rate and pitch are global state of the instance and
 *   persist between calls, so every call sets all of them again.
 * - Input is always parsed as SSML and `[[..]]` as phonemes (see text-input.ts).
 * - `set_voice()` returns non-zero for an unknown voice but silently ignores an
 *   unknown `+variant`, so variants are checked against the data files here.
 * - Output is not bit-for-bit repeatable: the same call can differ by a few
 *   ms in length from one run to the next.
 */
import type { EspeakEvent, EspeakModule, EspeakVoiceListing, ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import { groupIntoSourceWords } from './source-words.js';
import { sourcePosition, splitForSynthesis, toEspeakInput } from './text-input.js';
import { wordTimingsFromEvents } from './word-timings.js';

export const ESPEAK_SAMPLE_RATE = 22050;
export const DEFAULT_RATE_WPM = 175;
export const MIN_RATE_WPM = 80;
export const MAX_RATE_WPM = 450;
export const DEFAULT_PITCH = 50;
export const DEFAULT_PITCH_RANGE = 50;
export const DEFAULT_VOLUME = 100;

/** Longest piece (in code points) synthesized in one blocking call (~0.1-0.3 s of CPU). */
const MAX_CHUNK_CODE_POINTS = 1500;
const DATA_ROOT = '/usr/share/espeak-ng-data';

export interface SynthesisOptions {
  /** eSpeak voice name, optionally with a variant: "en-us", "en-us+f3", "pt-br+m3". */
  voice: string;
  /** Words per minute, 80-450 (clamped). Default 175. */
  rate?: number;
  /** 0-99 (clamped), 50 is the voice's own pitch. */
  pitch?: number;
  /** Intonation range 0-99 (clamped): 0 is monotone. Default 50. */
  pitchRange?: number;
  /** Amplitude 0-200 (clamped). Default 100. */
  volume?: number;
}

export interface WordTiming {
  text: string;
  startMs: number;
  endMs: number;
}

export interface SynthesisResult {
  /** Mono 16-bit PCM. */
  samples: Int16Array;
  sampleRate: number;
  words: WordTiming[];
}

export class UnknownVoiceError extends Error {
  constructor(readonly voice: string, detail: string) {
    super(`Unknown eSpeak voice "${voice}": ${detail}`);
    this.name = 'UnknownVoiceError';
  }
}

export class EspeakSynthesizer {
  private voiceListing?: EspeakVoiceListing[];
  private variantNames?: string[];

  private constructor(
    private readonly module: EspeakModule,
    private readonly worker: ESpeakNGWorker,
  ) {}

  /** Loads and initializes a fresh wasm instance (prefer the shared `getSynthesizer()`). */
  static async create(): Promise<EspeakSynthesizer> {
    // Imported lazily: parsing the 0.8 MB glue and 24 MB data only when speech is needed.
    const { default: createEspeakModule } = await import('@echogarden/espeak-ng-emscripten');
    const module = await createEspeakModule();
    return new EspeakSynthesizer(module, new module.eSpeakNGWorker());
  }

  get sampleRate(): number {
    return this.worker.get_samplerate();
  }

  /** The languages the build knows (identifier like "gmw/en-US"; the voice name is its last segment). */
  listVoices(): EspeakVoiceListing[] {
    this.voiceListing ??= this.worker.list_voices();
    return this.voiceListing;
  }

  /** Variant names usable after "+" (f1-f5, m1-m8, klatt, whisper, ...). */
  listVariants(): string[] {
    this.variantNames ??= this.module.FS.readdir(`${DATA_ROOT}/voices/!v`)
      .filter((name) => !name.startsWith('.'))
      .sort();
    return this.variantNames;
  }

  /** Whether `voice` ("en-us", "en-us+f3") names a language voice and variant of this build. */
  hasVoice(voice: string): boolean {
    return this.voiceProblem(voice) === undefined;
  }

  /**
   * Synthesizes `text`.
   *
   * Concurrency: the wasm instance is not reentrant and holds one global
   * voice/rate/pitch state. Each piece of text is therefore one synchronous
   * critical section that first sets all of that state and then synthesizes;
   * JS cannot interrupt it. Concurrent calls may interleave only *between*
   * pieces, which is safe and lets a short request finish while a long
   * script is still being produced, instead of waiting behind it. An aborted
   * `signal` ends it at the next piece (a worker stopping, a server closing).
   */
  async synthesize(text: string, options: SynthesisOptions, signal?: AbortSignal): Promise<SynthesisResult> {
    const voice = options.voice.trim();
    const problem = this.voiceProblem(voice);
    if (problem) throw new UnknownVoiceError(voice, problem);

    const rate = clampInt(options.rate ?? DEFAULT_RATE_WPM, MIN_RATE_WPM, MAX_RATE_WPM, 'rate');
    const pitch = clampInt(options.pitch ?? DEFAULT_PITCH, 0, 99, 'pitch');
    const pitchRange = clampInt(options.pitchRange ?? DEFAULT_PITCH_RANGE, 0, 99, 'pitchRange');
    const volume = clampInt(options.volume ?? DEFAULT_VOLUME, 0, 200, 'volume');

    const codePoints = Array.from(text);
    const sampleRate = this.sampleRate;
    const pieces: Int16Array[] = [];
    const words: WordTiming[] = [];
    let totalSamples = 0;

    const ranges = splitForSynthesis(codePoints, MAX_CHUNK_CODE_POINTS);
    for (let r = 0; r < ranges.length; r++) {
      const [start, end] = ranges[r];
      const chunk = codePoints.slice(start, end);
      if (chunk.join('').trim() === '') continue;
      if (r > 0) await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();

      // From here to the end of the loop body runs synchronously: set the shared
      // state, synthesize, collect. Another call may run only at the `await` above.
      const rc = this.worker.set_voice(voice);
      if (rc !== 0) throw new UnknownVoiceError(voice, `eSpeak refused it (code ${rc})`);
      this.worker.set_rate(rate);
      this.worker.set_pitch(pitch);
      this.worker.set_range(pitchRange);
      this.worker.set_volume(volume);

      const mapped = toEspeakInput(chunk);
      const events: EspeakEvent[] = [];
      let chunkSamples = 0;
      this.worker.synthesize(mapped.input, (samples, chunkEvents) => {
        if (samples.length > 0) {
          pieces.push(samples);
          chunkSamples += samples.length;
        }
        events.push(...chunkEvents);
        return false; // false = keep going
      });

      const offsetMs = (totalSamples * 1000) / sampleRate;
      const chunkMs = (chunkSamples * 1000) / sampleRate;
      const timed = wordTimingsFromEvents(events, chunkMs)
        .map((w) => ({ ...w, sourceStart: sourcePosition(mapped, w.textPosition) }))
        .filter((w) => w.sourceStart >= 0);
      for (const w of groupIntoSourceWords(chunk, timed)) {
        words.push({ text: w.text, startMs: Math.round(offsetMs + w.startMs), endMs: Math.round(offsetMs + w.endMs) });
      }
      totalSamples += chunkSamples;
    }

    const samples = new Int16Array(totalSamples);
    let at = 0;
    for (const piece of pieces) {
      samples.set(piece, at);
      at += piece.length;
    }
    return { samples, sampleRate, words };
  }

  private voiceProblem(voice: string): string | undefined {
    const [base, variant, ...rest] = voice.trim().split('+');
    if (!base || rest.length > 0) return 'expected "<language>" or "<language>+<variant>"';
    const known = this.listVoices().some((v) => baseName(v.identifier).toLowerCase() === base.toLowerCase());
    if (!known) return `no language voice named "${base}"`;
    if (variant !== undefined && !this.listVariants().includes(variant)) {
      return `no variant named "${variant}" (e.g. ${['f1', 'f3', 'm3', 'klatt'].join(', ')})`;
    }
    return undefined;
  }
}

function baseName(identifier: string): string {
  return identifier.slice(identifier.lastIndexOf('/') + 1);
}

function clampInt(value: number, min: number, max: number, name: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number, got ${value}`);
  return Math.min(max, Math.max(min, Math.round(value)));
}

let shared: Promise<EspeakSynthesizer> | undefined;

/** The process-wide instance, created on first use (a failed init is retried next time). */
export function getSynthesizer(): Promise<EspeakSynthesizer> {
  shared ??= EspeakSynthesizer.create().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}

/** Synthesizes with the shared instance. */
export async function synthesize(text: string, options: SynthesisOptions): Promise<SynthesisResult> {
  return (await getSynthesizer()).synthesize(text, options);
}
