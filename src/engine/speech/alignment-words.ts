/**
 * Word timings from a provider's character alignment (ElevenLabs' `alignment`: each character
 * with its start and end in seconds): a word runs from its first character's start to its last
 * character's end, moved by the offset of the part of the audio it belongs to.
 */
import type { TimedWord } from './srt.js';

export interface CharacterAlignment {
  characters: string[];
  character_start_times_seconds: number[];
  character_end_times_seconds: number[];
}

/** Whether a provider's answer really is an alignment (arrays of one length, times in order). */
export function isCharacterAlignment(value: unknown): value is CharacterAlignment {
  const alignment = value as CharacterAlignment | null | undefined;
  if (!alignment || !Array.isArray(alignment.characters)) return false;
  const { characters, character_start_times_seconds: starts, character_end_times_seconds: ends } = alignment;
  return (
    Array.isArray(starts) &&
    Array.isArray(ends) &&
    starts.length === characters.length &&
    ends.length === characters.length &&
    characters.every((character) => typeof character === 'string') &&
    starts.every((time, index) => Number.isFinite(time) && Number.isFinite(ends[index]) && time >= 0)
  );
}

export function wordsFromAlignment(alignment: CharacterAlignment, offsetSeconds = 0): TimedWord[] {
  const words: TimedWord[] = [];
  let text = '';
  let start = 0;
  let end = 0;
  const close = () => {
    if (text) words.push({ text, startMs: (offsetSeconds + start) * 1000, endMs: (offsetSeconds + end) * 1000 });
    text = '';
  };
  alignment.characters.forEach((character, index) => {
    if (/^\s*$/u.test(character)) return close();
    if (!text) start = alignment.character_start_times_seconds[index]!;
    text += character;
    end = alignment.character_end_times_seconds[index]!;
  });
  close();
  return words;
}
