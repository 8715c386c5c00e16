/**
 * Offline speech: eSpeak NG for built-in voices, clones and alt voices while no MiniMax key is
 * set; installed Piper voices through sherpa-onnx.
 */
import { encodeMp3 } from '../mp3.js';
import { getSynthesizer, type EspeakSynthesizer, type SynthesisOptions } from '../synthesizer.js';
import { speakWithPiper } from '../piper/piper-synth.js';
import { findPiperVoice } from '../piper/piper-voices.js';
import type { SpeechOrder, SpeechProvider, SpokenScript } from './speech-provider.js';

/** Mono speech: 64 kbps keeps it clear at about 8 KB per second. */
export const GENERATED_MP3_KBPS = 64;

/** Synthesis and MP3 encoding with a given synthesizer (the worker's shared one, or a bench's). */
export async function renderWithEspeak(synthesizer: EspeakSynthesizer, script: string, settings: SynthesisOptions, signal?: AbortSignal): Promise<SpokenScript> {
  const speech = await synthesizer.synthesize(script, settings, signal);
  signal?.throwIfAborted();
  const mp3 = await encodeMp3(speech.samples, speech.sampleRate, GENERATED_MP3_KBPS, { signal });
  return { mp3, words: speech.words, durationSeconds: speech.samples.length / speech.sampleRate, upstreamCharacters: [] };
}

export async function speakWithEspeak(order: SpeechOrder, signal?: AbortSignal): Promise<SpokenScript> {
  if (!order.speech) throw new Error('eSpeak needs the voice\'s synthesis settings');
  return renderWithEspeak(await getSynthesizer(), order.script, order.speech, signal);
}

/** Stealth voices of an engine whose files (installed Piper voices among them) are in `filesDir`. */
export function stealthProvider(filesDir: string): SpeechProvider {
  return {
    label: 'eSpeak NG',
    async speak(order, signal) {
      if (!order.piper) return speakWithEspeak(order, signal);
      const voice = findPiperVoice(filesDir, order.piper.voiceId);
      if (!voice) throw new Error(`The Piper voice ${order.piper.voiceId} is no longer installed; install it again with \`tubekit voices install\`.`);
      return speakWithPiper(voice, order.script, order.piper.speed, signal);
    },
    // Stealth clones live in the engine's store only.
    cloneVoice: async () => null,
    deleteVoice: async () => undefined,
  };
}
