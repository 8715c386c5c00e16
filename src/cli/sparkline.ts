/** Daily values as a line of Unicode blocks for a terminal cell; an unknown day is a space (a gap). */
const BLOCKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

export function blockSparkline(values: readonly (number | null)[]): string {
  const known = values.filter((value): value is number => value !== null);
  if (known.length === 0) return '';
  const min = Math.min(...known);
  const span = Math.max(...known) - min;
  return values
    .map((value) => (value === null ? ' ' : BLOCKS[span === 0 ? 3 : Math.round(((value - min) / span) * (BLOCKS.length - 1))]!))
    .join('');
}
