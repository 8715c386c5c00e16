/**
 * The offline generation pipeline as one pure step: script and synthesizer settings in, MP3 bytes
 * and an SRT transcript (one word per cue, timed by the synthesizer's word events) out.
 */
import { wordsToSrt, type EspeakSynthesizer, type SynthesisOptions } from '../../speech/index.js';
import { renderWithEspeak } from '../../speech/providers/espeak-provider.js';

export { GENERATED_MP3_KBPS } from '../../speech/providers/espeak-provider.js';

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
  const spoken = await renderWithEspeak(synthesizer, script, settings, signal);
  return { mp3: spoken.mp3, srt: wordsToSrt(spoken.words), durationSeconds: spoken.durationSeconds, words: spoken.words.length };
}
