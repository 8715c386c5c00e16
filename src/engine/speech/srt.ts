/**
 * SubRip subtitles from word timings. One word per cue, as the hosted
 * service does for this provider (karaoke-style captions).
 */

export interface TimedWord {
  text: string;
  startMs: number;
  endMs: number;
}

/** 3723004 → "01:02:03,004". */
export function formatSrtTimestamp(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const milli = total % 1000;
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)},${pad(milli, 3)}`;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/**
 * "1\n00:00:00,000 --> 00:00:00,420\nHello\n\n2\n...". Words with no visible
 * text are skipped (numbering stays sequential); an end before the start is
 * raised to the start.
 */
export function wordsToSrt(words: readonly TimedWord[]): string {
  const cues: string[] = [];
  for (const word of words) {
    const text = word.text.replace(/\s+/g, ' ').trim();
    if (!text) continue;
    const end = Math.max(word.endMs, word.startMs);
    cues.push(`${cues.length + 1}\n${formatSrtTimestamp(word.startMs)} --> ${formatSrtTimestamp(end)}\n${text}\n`);
  }
  return cues.join('\n');
}
