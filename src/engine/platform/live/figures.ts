/**
 * The site's figures as text, read in English/US: "1.23M subscribers", "8.84k subscribers",
 * "2,530,935,570 views", "No views", "1:07:34", "Joined Feb 1, 2015", "13 days ago".
 */

/** A count, and whether the text gave it exactly or abbreviated (then it is an estimate). */
export interface ReadCount {
  value: number;
  exact: boolean;
}

const SCALE: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

export function parseCount(text: string | undefined): ReadCount | null {
  if (!text) return null;
  const trimmed = text.trim();
  if (/^no\b/i.test(trimmed)) return { value: 0, exact: true };
  const match = /([\d][\d,.]*)\s*([KMB])?(?![a-z])/i.exec(trimmed);
  if (!match) return null;
  const digits = match[1]!;
  const suffix = match[2]?.toLowerCase();
  if (!suffix) return { value: Number(digits.replace(/,/g, '')), exact: true };
  return { value: Math.round(Number(digits.replace(/,/g, '')) * SCALE[suffix]!), exact: false };
}

/** "1:07:34" → 4054; "LIVE", "SHORTS" and the like → null. */
export function parseClock(text: string | undefined): number | null {
  if (!text || !/^\d+(?::\d{1,2}){1,2}$/.test(text.trim())) return null;
  return text
    .trim()
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "Joined Feb 1, 2015" (also "1 Feb 2015") → "2015-02-01". */
export function parseDateText(text: string | undefined): string | null {
  if (!text) return null;
  const us = /([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),\s*(\d{4})/.exec(text);
  const uk = /(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})/.exec(text);
  const [month, day, year] = us ? [us[1]!, us[2]!, us[3]!] : uk ? [uk[2]!, uk[1]!, uk[3]!] : [];
  if (!month) return null;
  const index = MONTHS.indexOf(month.toLowerCase());
  if (index < 0) return null;
  return `${year}-${String(index + 1).padStart(2, '0')}-${day!.padStart(2, '0')}`;
}

const UNIT_MS: Record<string, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

/** "13 days ago", "Streamed 2 hours ago" → an estimated time (ms), or null. */
export function parseAgo(text: string | undefined, nowMs: number): number | null {
  const match = text ? /(\d+)\s+(second|minute|hour|day|week|month|year)s?\s+ago/i.exec(text) : null;
  if (!match) return null;
  return nowMs - Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]!;
}

let countryCodes: Map<string, string> | undefined;

/** "United Kingdom" → "GB" (the about view names the country in English). */
export function countryCode(name: string | undefined): string | null {
  if (!name) return null;
  if (!countryCodes) {
    countryCodes = new Map();
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        const display = names.of(code);
        // First wins: an alias (UK) comes after the code it stands for (GB).
        if (display && display !== code && !countryCodes.has(display.toLowerCase())) countryCodes.set(display.toLowerCase(), code);
      }
    }
    countryCodes.set('united states', 'US');
  }
  return countryCodes.get(name.trim().toLowerCase()) ?? null;
}
