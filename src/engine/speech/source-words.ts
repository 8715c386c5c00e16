/**
 * Word timings expressed in the user's own words.
 *
 * eSpeak's word events follow its internal tokens, not the text: "$1,234.50"
 * yields five overlapping events ("$", "1,", ",2", "234.50", "34.50"), "Dr."
 * loses its period, and "<b>x</b>" becomes three words. For subtitles each
 * whitespace-separated token of the source should appear once, with the time
 * span of all events inside it. Scripts written without spaces (Chinese,
 * Japanese, Thai...) are the exception: there eSpeak's events are the only
 * word boundaries, so such tokens are cut at the event positions.
 */
import type { RawWordTiming } from './word-timings.js';

export interface SourceWord {
  text: string;
  startMs: number;
  endMs: number;
}

const NO_SPACES_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const SPACE = /\s/u;

interface Token {
  start: number;
  end: number; // exclusive
}

/**
 * Groups timed eSpeak words (positions already mapped to source code point
 * indexes via `sourceStart`) into source words.
 */
export function groupIntoSourceWords(
  codePoints: readonly string[],
  timings: ReadonlyArray<RawWordTiming & { sourceStart: number }>,
): SourceWord[] {
  const tokens: Token[] = [];
  for (let i = 0; i < codePoints.length; ) {
    if (SPACE.test(codePoints[i])) {
      i++;
      continue;
    }
    const start = i;
    while (i < codePoints.length && !SPACE.test(codePoints[i])) i++;
    tokens.push({ start, end: i });
  }

  // Token of a position: the one containing it, or the one before if it points at whitespace.
  const tokenOf = (index: number): number => {
    let lo = 0;
    let hi = tokens.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (tokens[mid].start <= index) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  };

  const words: Array<SourceWord & { token: number }> = [];
  let i = 0;
  while (i < timings.length) {
    const t = tokenOf(timings[i].sourceStart);
    let j = i + 1;
    while (j < timings.length && tokenOf(timings[j].sourceStart) === t) j++;
    const group = timings.slice(i, j);
    i = j;
    if (t < 0) continue; // before any text: nothing to show
    const token = tokens[t];
    const tokenText = codePoints.slice(token.start, token.end).join('');

    if (group.length > 1 && NO_SPACES_SCRIPT.test(tokenText)) {
      // Cut at event positions: each event owns the text up to the next one.
      group.forEach((timing, k) => {
        const from = k === 0 ? token.start : Math.max(token.start, timing.sourceStart);
        const to = k === group.length - 1 ? token.end : Math.min(token.end, group[k + 1].sourceStart);
        const text = codePoints.slice(from, to).join('').trim();
        const last = words[words.length - 1];
        if (text) words.push({ text, startMs: timing.startMs, endMs: timing.endMs, token: t });
        else if (last) last.endMs = Math.max(last.endMs, timing.endMs); // repeated position: extend
      });
      continue;
    }

    const startMs = Math.min(...group.map((g) => g.startMs));
    const endMs = Math.max(...group.map((g) => g.endMs));
    const last = words[words.length - 1];
    if (last && last.token === t) {
      last.endMs = Math.max(last.endMs, endMs); // same token again after an interruption: widen
    } else {
      words.push({ text: tokenText, startMs, endMs, token: t });
    }
  }
  return words.map(({ text, startMs, endMs }) => ({ text, startMs, endMs }));
}
