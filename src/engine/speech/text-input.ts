/**
 * Turning user text into eSpeak input, and eSpeak text positions back into
 * user text.
 *
 * Why: the wasm build always parses its input as SSML and treats `[[...]]`
 * as raw phoneme input (there is no flag to turn either off), so user text
 * must be escaped. eSpeak then reports word positions in the *escaped*
 * string, counted in Unicode code points, which we map back to the original.
 */

export interface EspeakInput {
  /** The string to hand to eSpeak. */
  input: string;
  /** For each code point of `input`, the index of the source code point it came from. */
  sourceIndex: number[];
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Escapes markup characters, defuses `[[` phoneme input and drops NULs, keeping a position map. */
export function toEspeakInput(codePoints: readonly string[]): EspeakInput {
  let input = '';
  const sourceIndex: number[] = [];
  const emit = (s: string, from: number) => {
    input += s;
    for (let k = 0; k < s.length; k++) sourceIndex.push(from); // entities/our inserts are ASCII: 1 code point per unit
  };
  for (let i = 0; i < codePoints.length; i++) {
    const cp = codePoints[i];
    if (cp in ENTITIES) {
      emit(ENTITIES[cp], i);
    } else if (cp === '\0') {
      emit(' ', i); // would end the C string early
    } else if (cp === '[' && codePoints[i + 1] === '[') {
      emit('[ ', i); // "[ [" is read as text, "[[" would switch to phoneme input
    } else {
      input += cp;
      sourceIndex.push(i);
    }
  }
  return { input, sourceIndex };
}

/** Source code point index of a 1-based eSpeak text position, or -1 if out of range. */
export function sourcePosition(mapped: EspeakInput, textPosition: number): number {
  const i = textPosition - 1;
  return i >= 0 && i < mapped.sourceIndex.length ? mapped.sourceIndex[i] : -1;
}

const SENTENCE_END = new Set(['.', '!', '?', ';', ':', '。', '！', '？', '；', '…', '\n']);
const CJK_SENTENCE_END = new Set(['。', '！', '？']);

/**
 * Splits text (as code points) into [start, end) ranges of at most `maxLength`
 * code points, preferring sentence ends, then whitespace.
 *
 * Why: one eSpeak call is synchronous; long scripts are synthesized piecewise
 * so the event loop gets a turn between pieces.
 */
export function splitForSynthesis(codePoints: readonly string[], maxLength: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let start = 0;
  const n = codePoints.length;
  while (start < n) {
    if (n - start <= maxLength) {
      ranges.push([start, n]);
      break;
    }
    const limit = start + maxLength;
    const floor = start + Math.floor(maxLength / 3);
    const isSpace = (i: number) => /\s/u.test(codePoints[i]);
    let cut = -1;
    // Cut after the whitespace that follows a sentence end (or right after a CJK full stop / newline)...
    for (let i = limit; i > floor && cut < 0; i--) {
      const prev = codePoints[i - 1];
      if ((isSpace(i - 1) && SENTENCE_END.has(codePoints[i - 2])) || CJK_SENTENCE_END.has(prev) || prev === '\n') cut = i;
    }
    // ...else after any whitespace, else anywhere.
    for (let i = limit; i > floor && cut < 0; i--) {
      if (isSpace(i - 1)) cut = i;
    }
    if (cut < 0) cut = limit;
    ranges.push([start, cut]);
    start = cut;
  }
  return ranges;
}
