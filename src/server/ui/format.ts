/** Figures as the dashboard shows them: grouped digits, signed deltas, and unknown said as such. */
import { html, type SafeHtml } from './html.js';

const grouped = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 4 });

export function count(value: number | null | undefined): SafeHtml | string {
  return value === null || value === undefined ? unknown() : grouped.format(value);
}

export function shortCount(value: number): string {
  return compact.format(value);
}

/** A change: +1,234 in the rising colour, −56 in the falling one, "unknown" when the window is not covered. */
export function delta(value: number | null | undefined): SafeHtml {
  if (value === null || value === undefined) return unknown();
  if (value === 0) return html`0`;
  return value > 0 ? html`<span class="up">+${grouped.format(value)}</span>` : html`<span class="down">−${grouped.format(-value)}</span>`;
}

export function unknown(): SafeHtml {
  return html`<span class="unknown">unknown</span>`;
}
