/**
 * Word start/end times from the event stream of one eSpeak synthesis call.
 *
 * eSpeak emits a `word` event when a word starts, then `phoneme` events for
 * its sounds; pauses come as phoneme events with an empty name, and `end`
 * marks a clause end. A word ends at the first pause after its last sound,
 * else when the next word or clause starts, else at the end of the audio.
 */

export interface EspeakTimingEvent {
  type: string;
  text_position: number;
  word_length: number;
  audio_position: number;
  id?: string | number;
}

export interface RawWordTiming {
  /** 1-based code point position in the text given to eSpeak. */
  textPosition: number;
  length: number;
  startMs: number;
  endMs: number;
}

export function wordTimingsFromEvents(events: readonly EspeakTimingEvent[], totalMs: number): RawWordTiming[] {
  const words: RawWordTiming[] = [];
  let current: RawWordTiming | undefined;
  let heardSound = false;
  let pauseAt: number | undefined; // first pause after the latest sound of `current`

  const close = (at: number) => {
    if (!current) return;
    const end = pauseAt ?? at;
    current.endMs = Math.max(current.startMs, Math.min(end, totalMs));
    current = undefined;
  };

  for (const ev of events) {
    if (ev.type === 'word') {
      // Some languages (ja, cmn) repeat the word event for one position: keep the first.
      if (current && current.textPosition === ev.text_position) continue;
      close(ev.audio_position);
      current = { textPosition: ev.text_position, length: ev.word_length, startMs: ev.audio_position, endMs: ev.audio_position };
      words.push(current);
      heardSound = false;
      pauseAt = undefined;
    } else if (ev.type === 'phoneme' && current) {
      if (ev.id) {
        heardSound = true;
        pauseAt = undefined;
      } else if (heardSound && pauseAt === undefined) {
        pauseAt = ev.audio_position;
      }
    } else if (ev.type === 'end') {
      close(ev.audio_position);
    }
  }
  close(totalMs);
  return words;
}
