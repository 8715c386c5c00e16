/**
 * One interface for a provider of voices: it speaks a script with word timings, and clones and
 * deletes voices at its end. The engine picks one implementation per provider from its
 * configuration (registry.ts); features never ask which one it is.
 */
import type { CatalogVoice } from '../../../core/schemas/voices.js';
import type { TimedWord } from '../srt.js';
import type { SynthesisOptions } from '../synthesizer.js';

/** What a generation asks a provider for, resolved when it was submitted. */
export interface SpeechOrder {
  script: string;
  /** eSpeak's settings (stealth voices, and the alt stand-in). */
  speech?: SynthesisOptions;
  /** An installed Piper voice (stealth `piper-…` ids), spoken by sherpa-onnx at `speed`. */
  piper?: { voiceId: string; speed: number };
  /** The voice at the upstream provider, with the request's own settings for it. */
  upstream?: { voiceId: string; modelId?: string; settings: Record<string, number> };
}

export interface SpokenScript {
  mp3: Buffer;
  words: TimedWord[];
  durationSeconds: number;
  /** Characters sent in each upstream call (empty when spoken offline). */
  upstreamCharacters: number[];
}

/** Characters of the calls a provider answered before a later one failed, by the failure. */
const spentBeforeFailure = new WeakMap<object, number[]>();

/** The failure, marked with what the calls answered before it were sent (nothing when none was). */
export function withSpentCharacters(failure: unknown, characters: number[]): unknown {
  if (characters.length > 0 && failure !== null && typeof failure === 'object') spentBeforeFailure.set(failure, characters);
  return failure;
}

/** The characters a failed speech had already spent at the provider, if any. */
export const spentCharacters = (failure: unknown): number[] | undefined => (failure !== null && typeof failure === 'object' ? spentBeforeFailure.get(failure) : undefined);

export interface CloneSample {
  data: Buffer;
  filename: string;
  mimeType: string;
  name: string;
  language?: string;
  description?: string;
  removeNoise: boolean;
}

/** A voice of the provider's own catalog, before the caller's view of it (is_cloned). */
export type UpstreamCatalogVoice = Omit<CatalogVoice, 'is_cloned'> & { createdAt: number | null };

export interface SpeechProvider {
  /** How messages name it: "eSpeak NG", "the local alt stand-in", "ElevenLabs", "MiniMax". */
  readonly label: string;
  /** True for a local stand-in of a provider the engine has no key for (alt without MiniMax). */
  readonly standIn?: boolean;
  speak(order: SpeechOrder, signal: AbortSignal): Promise<SpokenScript>;
  /** Creates the voice at the provider; resolves to its id there (null: nothing is kept upstream). */
  cloneVoice(sample: CloneSample): Promise<string | null>;
  /** Asks the provider to forget a voice; a voice it no longer knows is not an error. */
  deleteVoice(upstreamId: string): Promise<void>;
  /** The provider's own voices (only providers with a catalog of their own). */
  catalog?(): Promise<UpstreamCatalogVoice[]>;
  /** One light authenticated call, for `doctor`. */
  check?(): Promise<string>;
}
