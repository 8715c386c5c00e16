/**
 * Text measured in terminal cells, not code points: a Japanese or Korean character and most emoji
 * take two cells, a combining mark or a zero-width joiner none, so tables of such titles line up.
 */
import stringWidth from 'string-width';

export const cellWidth = (text: string): number => stringWidth(text);

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text` cut to at most `max` cells, ending in `…` when cut; never splits a grapheme (a flag, a family emoji). */
export function truncateToWidth(text: string, max: number): string {
  if (cellWidth(text) <= max) return text;
  const room = Math.max(0, max - 1);
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const w = cellWidth(segment);
    if (used + w > room) break;
    kept += segment;
    used += w;
  }
  return `${kept}…`;
}
