/** A word-sized chart of daily values for a table cell: the same gap rules as the big chart. */
import { placeSeries, runsPath } from './chart-geometry.js';
import { html, trusted, type SafeHtml } from './html.js';

export function sparkline(label: string, values: readonly (number | null)[]): SafeHtml {
  const placed = placeSeries(values, { left: 1, top: 1, width: 78, height: 18 });
  if (!placed) return html`<span class="unknown">no history</span>`;
  const first = placed.points[0]!.value;
  const last = placed.points.at(-1)!.value;
  const name = `${label}: ${first.toLocaleString('en-US')} to ${last.toLocaleString('en-US')} over ${values.length} days`;
  const dots = placed.runs.filter((run) => run.length === 1).map((run) => `<circle class="dot" r="1" cx="${run[0]!.x}" cy="${run[0]!.y}"/>`).join('');
  return html`<svg class="spark" viewBox="0 0 80 20" role="img" aria-label="${name}" data-points="${placed.points.length}"><path class="line" d="${trusted(runsPath(placed.runs))}"/>${trusted(dots)}</svg>`;
}
