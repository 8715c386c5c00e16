/**
 * The generation pipeline as one pure step: script and synthesizer settings in, MP3 bytes and
 * an SRT transcript (one word per cue, timed by the synthesizer's word events) out.
 */
import { encodeMp3, wordsToSrt, type EspeakSynthesizer, type SynthesisOptions } from '../../speech/index.js';

/** Mono speech: 64 kbps keeps it clear at about 8 KB per second. */
export const GENERATED_MP3_KBPS = 64;

export interface RenderedSpeech {
  mp3: Buffer;
  srt: string;
  durationSeconds: number;
  words: number;
}

export async function renderSpeech(
  synthesizer: EspeakSynthesizer,
  script: string,
  settings: SynthesisOptions,
  signal?: AbortSignal,
): Promise<RenderedSpeech> {
  const speech = await synthesizer.synthesize(script, settings, signal);
  signal?.throwIfAborted();
  const mp3 = await encodeMp3(speech.samples, speech.sampleRate, GENERATED_MP3_KBPS, { signal });
  return {
    mp3,
    srt: wordsToSrt(speech.words),
    durationSeconds: speech.samples.length / speech.sampleRate,
    words: speech.words.length,
  };
}
