/**
 * A caption track's timed text, in the formats the site serves: `fmt=json3` (asked for), srv3
 * (`<timedtext format="3">`, `<p t d>` in ms) and the legacy `<transcript><text start dur>` (s).
 */
import type { TranscriptCue } from '../transcript.js';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };

function decodeXml(text: string): string {
  return text
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
      if (entity[0] === '#') return codePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
      return ENTITIES[entity] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** A numeric entity's character; a number that is no code point (`&#99999999;`) is malformed text, not a crash. */
function codePoint(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value > 0x10ffff) throw new MalformedTimedText();
  return String.fromCodePoint(value);
}

class MalformedTimedText extends Error {}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

function fromJson3(text: string): TranscriptCue[] {
  const parsed = JSON.parse(text) as { events?: Array<{ tStartMs?: number; dDurationMs?: number; segs?: Array<{ utf8?: string }> }> };
  // A json3 track always lists its events: JSON without them is another page, not an empty track.
  if (!Array.isArray(parsed.events)) throw new TypeError('json3 without events');
  return parsed.events
    .filter((event) => event.segs)
    .map((event) => {
      const start = (event.tStartMs ?? 0) / 1000;
      return { start: round(start), end: round(start + (event.dDurationMs ?? 0) / 1000), text: event.segs!.map((seg) => seg.utf8 ?? '').join('').replace(/\s+/g, ' ').trim() };
    })
    .filter((cue) => cue.text);
}

function fromXml(text: string): TranscriptCue[] | null {
  const cues: TranscriptCue[] = [];
  if (/<timedtext[^>]*format="3"/.test(text)) {
    for (const match of text.matchAll(/<p\b([^>]*)>([\s\S]*?)<\/p>/g)) {
      const t = Number(/\bt="(\d+)"/.exec(match[1]!)?.[1] ?? NaN);
      const d = Number(/\bd="(\d+)"/.exec(match[1]!)?.[1] ?? 0);
      const body = decodeXml(match[2]!);
      if (!Number.isNaN(t) && body) cues.push({ start: round(t / 1000), end: round((t + d) / 1000), text: body });
    }
    return cues;
  }
  if (/<transcript\b/.test(text)) {
    for (const match of text.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>/g)) {
      const start = Number(/\bstart="([\d.]+)"/.exec(match[1]!)?.[1] ?? NaN);
      const dur = Number(/\bdur="([\d.]+)"/.exec(match[1]!)?.[1] ?? 0);
      const body = decodeXml(decodeXml(match[2]!)); // the legacy format escapes its entities twice
      if (!Number.isNaN(start) && body) cues.push({ start: round(start), end: round(start + dur), text: body });
    }
    return cues;
  }
  return null;
}

/** The cues, or null when the text is in no format known here (or malformed in it: the caller's 502). */
export function parseTimedText(text: string): TranscriptCue[] | null {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      return fromJson3(trimmed);
    } catch {
      return null;
    }
  }
  try {
    return fromXml(trimmed);
  } catch (error) {
    if (error instanceof MalformedTimedText) return null;
    throw error;
  }
}
