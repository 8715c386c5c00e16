/**
 * A line chart of daily values as server-rendered SVG: drawn without any script (the page's
 * script only reads out the point under the pointer), one dot per known day, gaps left open.
 */
import { placeSeries, runsPath } from './chart-geometry.js';
import { html, trusted, type SafeHtml } from './html.js';
import { shortCount } from './format.js';

export interface DailyValue {
  date: string;
  value: number | null;
}

const WIDTH = 640;
const HEIGHT = 240;
const PLOT = { left: 56, top: 12, width: WIDTH - 56 - 12, height: HEIGHT - 12 - 32 };

export function lineChart(id: string, title: string, series: readonly DailyValue[]): SafeHtml {
  const placed = placeSeries(series.map((day) => day.value), PLOT);
  const known = placed?.points.length ?? 0;
  const gaps = series.length - known;
  const first = series[0]?.date ?? '';
  const last = series.at(-1)?.date ?? '';
  const description = placed
    ? `${known} of ${series.length} days known from ${first} to ${last}${gaps > 0 ? `; ${gaps} unknown days are left as gaps` : ''}. Lowest ${placed.min.toLocaleString('en-US')}, highest ${placed.max.toLocaleString('en-US')}.`
    : `No day from ${first} to ${last} is known.`;
  let marks = '';
  if (placed) {
    const bottom = PLOT.top + PLOT.height;
    marks += `<line class="axis" x1="${PLOT.left}" y1="${bottom}" x2="${PLOT.left + PLOT.width}" y2="${bottom}"/>`;
    marks += `<line class="axis" x1="${PLOT.left}" y1="${PLOT.top}" x2="${PLOT.left}" y2="${bottom}"/>`;
    marks += `<text x="${PLOT.left - 6}" y="${PLOT.top + 4}" text-anchor="end">${shortCount(placed.max)}</text>`;
    marks += `<text x="${PLOT.left - 6}" y="${bottom}" text-anchor="end">${shortCount(placed.min)}</text>`;
    marks += `<text x="${PLOT.left}" y="${HEIGHT - 8}">${first}</text>`;
    marks += `<text x="${PLOT.left + PLOT.width}" y="${HEIGHT - 8}" text-anchor="end">${last}</text>`;
    const path = runsPath(placed.runs);
    if (path) marks += `<path class="line" d="${path}"/>`;
    for (const point of placed.points) {
      marks += `<circle class="dot" r="2" cx="${point.x}" cy="${point.y}" data-date="${series[point.index]!.date}" data-value="${point.value}"/>`;
    }
  }
  return html`<figure class="chart" id="${id}">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" tabindex="0" aria-labelledby="${id}-title ${id}-desc" data-points="${known}" data-days="${series.length}">
<title id="${id}-title">${title}</title><desc id="${id}-desc">${description}</desc>${trusted(marks)}</svg>
<figcaption>${title}: ${description}</figcaption>
<output class="readout" aria-live="polite"></output>
</figure>`;
}
