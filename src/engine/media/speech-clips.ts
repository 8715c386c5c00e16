/**
 * The spoken pieces of a transcript, synthesized once each. A long video repeats itself: an hour
 * of human captions holds about 50 distinct sentences, an hour of auto captions about 400
 * distinct word groups but only about 120 distinct words. So human cues are spoken whole, one
 * synthesis per distinct sentence, and auto cues (machine-made word groups) are read word by
 * word from one synthesis per distinct word — the speech of an hour then costs about a second.
 */
import { ESPEAK_SAMPLE_RATE, type EspeakSynthesizer } from '../speech/index.js';
import type { CaptionSource, TranscriptCue } from '../platform/transcript.js';

/** The sample world speaks at about 0.38 s a word (transcripts.ts): eSpeak at the same pace. */
const WORDS_PER_MINUTE = 160;
/** Between the words of an auto cue, in samples. */
const WORD_GAP = Math.round(ESPEAK_SAMPLE_RATE * 0.06);
/** Quieter than this at either end of a synthesis is silence and is cut off. */
const SILENCE = 250;

/** A piece of sound placed on the video's timeline (samples from the video's start). */
export interface Placement {
  at: number;
  piece: string;
}

export class SpeechClips {
  readonly pieces = new Map<string, Int16Array>();

  constructor(
    private readonly synthesizer: EspeakSynthesizer,
    private readonly voice: string,
    private readonly source: CaptionSource,
  ) {}

  /** Synthesizes every distinct piece the cues need, then places them at the cues' times. */
  async place(cues: readonly TranscriptCue[], signal?: AbortSignal): Promise<Placement[]> {
    for (const piece of new Set(cues.flatMap((cue) => this.piecesOf(cue.text)))) {
      signal?.throwIfAborted();
      const speech = await this.synthesizer.synthesize(piece, { voice: this.voice, rate: WORDS_PER_MINUTE });
      this.pieces.set(piece, trimSilence(speech.samples));
    }
    return cues.flatMap((cue) => {
      let at = Math.round(cue.start * ESPEAK_SAMPLE_RATE);
      return this.piecesOf(cue.text).map((piece) => {
        const placement = { at, piece };
        at += this.pieces.get(piece)!.length + WORD_GAP;
        return placement;
      });
    });
  }

  private piecesOf(text: string): string[] {
    return this.source === 'human' ? [text] : text.split(/\s+/).filter(Boolean);
  }
}

function trimSilence(samples: Int16Array): Int16Array {
  let start = 0;
  let end = samples.length;
  while (start < end && Math.abs(samples[start]!) < SILENCE) start += 1;
  while (end > start && Math.abs(samples[end - 1]!) < SILENCE) end -= 1;
  return samples.subarray(start, end);
}
