/**
 * Times inside a video (a download's `start` and `end`): `1:30`, `00:01:30`, `90`, `90s`, `1m30s`,
 * `1h2m3s`, or a number of seconds. One parser for the CLI (which refuses a bad time before any
 * call) and the engine (which names the field in its 400).
 */

export const MEDIA_TIME_FORMS = 'a time like 1:30, 00:01:30, 90, 90s or 1m30s';

export type MediaTime = { ok: true; seconds: number } | { ok: false; message: string };

const CLOCK = /^(\d+):(\d{1,2})(?::(\d{1,2}))?(\.\d+)?$/;
const SECONDS = /^(\d+(?:\.\d+)?|\.\d+)\s*s?$/i;
const UNITS = /^(?:(\d+)\s*h)?\s*(?:(\d+)\s*m)?\s*(?:(\d+(?:\.\d+)?)\s*s)?$/i;

const pastFiftyNine = (text: string, part: 'field' | 'unit'): MediaTime => ({
  ok: false,
  message: `"${text}" is not a valid time: minutes and seconds after the first ${part} go up to 59`,
});

/** Milliseconds are the finest step a time keeps. */
const roundMs = (seconds: number) => Math.round(seconds * 1000) / 1000;

export function parseMediaTime(value: unknown): MediaTime {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, message: `must be ${MEDIA_TIME_FORMS}, not ${value}` };
    if (value < 0) return { ok: false, message: `must not be negative (got ${value})` };
    return { ok: true, seconds: roundMs(value) };
  }
  if (typeof value !== 'string') return { ok: false, message: `must be ${MEDIA_TIME_FORMS}` };
  const text = value.trim();
  if (text === '') return { ok: false, message: `must be ${MEDIA_TIME_FORMS}, not empty` };
  if (/^-\s*\d/.test(text)) return { ok: false, message: `must not be negative (got "${text}")` };

  const clock = CLOCK.exec(text);
  if (clock) {
    const [, first, second, third, fraction] = clock;
    const parts = third === undefined ? [0, Number(first), Number(second)] : [Number(first), Number(second), Number(third)];
    const [hours, minutes, seconds] = parts as [number, number, number];
    // The first field may run past 59 (`90:00` is ninety minutes); the ones after it may not.
    if (seconds > 59 || (third !== undefined && minutes > 59)) return pastFiftyNine(text, 'field');
    return { ok: true, seconds: roundMs(hours * 3600 + minutes * 60 + seconds + Number(fraction ?? 0)) };
  }
  const plain = SECONDS.exec(text);
  if (plain) return { ok: true, seconds: roundMs(Number(plain[1])) };
  const units = UNITS.exec(text);
  if (units && (units[1] ?? units[2] ?? units[3]) !== undefined) {
    const [, hours, minutes, seconds] = units;
    // As with fields: the first unit may run past 59 (`90m`, `1m90s` is not), the ones after it may not.
    if ((hours !== undefined && Number(minutes ?? 0) > 59) || ((hours ?? minutes) !== undefined && Number(seconds ?? 0) >= 60)) {
      return pastFiftyNine(text, 'unit');
    }
    return { ok: true, seconds: roundMs(Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0)) };
  }
  return { ok: false, message: `must be ${MEDIA_TIME_FORMS}, not "${text}"` };
}

/** 90 → "1:30", 3723.5 → "1:02:03.5": how messages show a time. */
export function formatMediaTime(seconds: number): string {
  const whole = Math.floor(seconds);
  const fraction = roundMs(seconds - whole);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const tail = fraction > 0 ? String(fraction).slice(1) : '';
  const ss = `${String(s).padStart(2, '0')}${tail}`;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
