/**
 * Keeping echoed input readable: a message that quotes what the user typed must not turn a
 * 100,000-character argument into 100 KB of stderr.
 */

/** The longest run of non-space characters a message shows whole. */
export const ECHO_LIMIT = 100;
/** The longest message shown whole (many ordinary words can be as bad as one long one). */
const MESSAGE_LIMIT = 1000;

/** A value cut to about `max` characters, saying how long it really was. */
export function clip(value: string, max = ECHO_LIMIT): string {
  const chars = [...value];
  if (chars.length <= max) return value;
  return `${chars.slice(0, Math.max(1, max - 20)).join('')}…(${chars.length.toLocaleString('en')} characters)`;
}

/** Every overlong word of a message cut with `clip`, and the whole message kept to a readable size. */
export function clipEchoes(message: string): string {
  if (message.length <= ECHO_LIMIT) return message;
  const cutWord = (word: string) => {
    // Closing quotes and punctuation stay, so the sentence around the value still reads.
    const tail = /["'.,;:)\]]{0,3}$/.exec(word)![0];
    return clip(word.slice(0, word.length - tail.length)) + tail;
  };
  return clip(message.replace(new RegExp(`\\S{${ECHO_LIMIT + 1},}`, 'g'), cutWord), MESSAGE_LIMIT);
}
