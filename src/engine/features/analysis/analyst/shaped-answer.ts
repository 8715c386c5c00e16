/**
 * Fills the JSON a prompt asked for (answer-shape.ts) with the video's facts, keeping every key's
 * shape: a list where a list was asked for (`shots` and the like are built from the transcript's
 * cue times), an object where an object was, and an empty value of the right type for what the
 * sample world cannot tell — never null for a key whose shape was given, and never a fact of the
 * video standing in for a fact of one of its parts (a video's kind is not a shot's kind).
 */
import type { AspectContext } from './aspects.js';
import type { FieldSpec, Shape } from './answer-shape.js';
import { excerpt, keyMoments, segmentWeight, type Segment } from './video-reading.js';

export interface ShapedAnswer {
  body: Record<string, unknown>;
  /** Paths of the keys the sample world could not fill (given empty values of their type). */
  unfilled: string[];
}

/** A video-level fact for a key name, or undefined when the sample world cannot tell it. */
export type FactLookup = (key: string) => unknown;

/** Keys that name the video's parts in time order (by a word of the key: `shot_list`, `key_moments`). */
const TIMED_WORDS = /^(shots?|scenes?|segments?|chapters?|cuts?|beats?|sections?|parts?|clips?|timeline|moments?|highlights?|timestamps?|transcripts?|captions?|subtitles?)$/;
const isTimed = (key: string) => key.split('_').some((word) => TIMED_WORDS.test(word));
/** Default shape of a timed list whose shape the prompt left open. */
const TIMED_ROW: Shape = {
  kind: 'list',
  item: { kind: 'object', fields: [{ name: 'start', shape: { kind: 'text' } }, { name: 'end', shape: { kind: 'text' } }, { name: 'description', shape: { kind: 'text' } }] },
};

/**
 * Whose facts an object's fields are: the video's (the answer itself, `metadata`, `video`), the
 * channel's (`channel`, `creator`), or something else's (`speaker`, `style`), whose name, title or
 * kind the video's must not stand in for.
 */
type Scope = 'video' | 'channel' | 'other';
const IDENTITY_KEYS = /^(id|name|title|kind|type|format|url|link|date|handle)$/;

function scopeOf(key: string): Scope {
  if (/^(channel|creator|author|uploader)/.test(key)) return 'channel';
  if (/^(meta|metadata|video|info|details|source|about|stats|statistics|performance|metrics|data)$/.test(key)) return 'video';
  return 'other';
}

const normalize = (key: string) => key.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

export function shapedAnswer(fields: FieldSpec[], context: AspectContext, fact: FactLookup): ShapedAnswer {
  const unfilled: string[] = [];
  const body: Record<string, unknown> = {};
  for (const field of fields) body[field.name] = videoValue(field, field.name, 'video', context, fact, unfilled);
  return { body, unfilled };
}

/** A fact for a key of an object in a scope. */
function scopedFact(key: string, scope: Scope, fact: FactLookup): unknown {
  if (scope === 'channel') return key.startsWith('channel') ? fact(key) : fact(`channel_${key}`);
  if (scope === 'other' && IDENTITY_KEYS.test(key)) return undefined;
  return fact(key);
}

function videoValue(field: FieldSpec, path: string, scope: Scope, context: AspectContext, fact: FactLookup, unfilled: string[]): unknown {
  const key = normalize(field.name);
  const known = scopedFact(key, scope, fact);
  let shape = field.shape;
  if (shape.kind === 'any' && isTimed(key) && known === undefined) shape = TIMED_ROW;
  switch (shape.kind) {
    case 'any':
      // A key named without a type: its fact as it is at the top, a scalar fact inside an object
      // (the video's visual notes are not a colour palette); "" when there is none.
      if (known !== undefined && (scope === 'video' && !path.includes('.') ? true : isScalar(known))) return known;
      return missing({ kind: 'text' }, path, unfilled);
    case 'list':
      return listValue(key, shape.item, known, path, context, unfilled);
    case 'object': {
      if (shape.fields.length === 0) return asObject(known) ?? missing(shape, path, unfilled);
      const inner = scopeOf(key);
      const object: Record<string, unknown> = {};
      for (const part of shape.fields) object[part.name] = videoValue(part, `${path}.${part.name}`, inner, context, fact, unfilled);
      return object;
    }
    default:
      return scalarValue(known, shape, path, unfilled);
  }
}

function listValue(key: string, item: Shape, known: unknown, path: string, context: AspectContext, unfilled: string[]): unknown[] {
  if (isTimed(key)) return timedParts(key, context).map((segment, index) => rowValue(item, segment, `${path}[${index}]`, unfilled));
  if (item.kind === 'object') {
    // Rows of something that is not a part of the video in time: only rows the facts give.
    if (!Array.isArray(known)) return missing({ kind: 'list', item }, path, unfilled) as unknown[];
    return known.filter((row) => asObject(row)).map((row) => pick(row as Record<string, unknown>, item.fields));
  }
  if (known === undefined || known === null) return missing({ kind: 'list', item }, path, unfilled) as unknown[];
  const values = Array.isArray(known) ? known : [known];
  return values.map((value) => (item.kind === 'any' ? value : scalarValue(textOf(value) ?? value, item, path, unfilled)));
}

/** The segments a timed list is made of: the whole transcript, its key moments, or consecutive stretches (shots, scenes). */
function timedParts(key: string, context: AspectContext): Segment[] {
  const { reading, prompt } = context;
  if (/transcri|caption|subtitle/.test(key)) return reading.segments;
  const wanted = prompt.count ?? (prompt.brevity === 'brief' ? 4 : prompt.brevity === 'detailed' ? 12 : 8);
  if (/moment|highlight|timestamp/.test(key)) return keyMoments(reading, wanted);
  // Shots and scenes are cut at the cue times: one a cue, unless a count (or their number) asks for fewer.
  const parts = prompt.count ?? Math.min(reading.segments.length, MAX_PARTS);
  return stretches(reading.segments, parts).map((group) => ({
    start: group[0]!.start,
    end: group.at(-1)!.end,
    text: group.reduce((best, segment) => (segmentWeight(segment, reading) > segmentWeight(best, reading) ? segment : best)).text,
  }));
}

/** Most shots (or scenes…) an answer lists when the prompt gives no count. */
const MAX_PARTS = 40;

/** `count` runs of consecutive segments, as even as the segments allow. */
function stretches(segments: Segment[], count: number): Segment[][] {
  const groups: Segment[][] = [];
  const size = segments.length / Math.min(count, segments.length);
  for (let start = 0; start < segments.length; ) {
    const end = Math.max(start + 1, Math.round(size * (groups.length + 1)));
    groups.push(segments.slice(start, end));
    start = end;
  }
  return groups;
}

const START = /^(start|begin|from|start_?time|starts?_at|time|timestamp|at|in)$/;
const END = /^(end|finish|to|until|end_?time|ends?_at|stop|out)$/;
const LENGTH = /^(duration|length|seconds|duration_seconds|length_seconds)$/;
const WORDS = /^(description|desc|text|caption|content|what|action|summary|dialogue|speech|said|transcript|narration|line|quote|words|subtitle|title|label|name)$/;

/** One timed part in the shape of a list item: times as `MM:SS.s` text (or seconds when a number is asked). */
function rowValue(item: Shape, segment: Segment, path: string, unfilled: string[]): unknown {
  if (item.kind !== 'object') {
    const line = `${mediaClock(segment.start)}–${mediaClock(segment.end)} ${excerpt(segment.text, 16)}`;
    return item.kind === 'any' || item.kind === 'text' ? line : missing(item, path, unfilled);
  }
  const row: Record<string, unknown> = {};
  for (const field of item.fields) {
    const key = normalize(field.name);
    const time = START.test(key) ? segment.start : END.test(key) ? segment.end : undefined;
    if (time !== undefined) row[field.name] = field.shape.kind === 'number' ? round(time) : mediaClock(time);
    else if (LENGTH.test(key)) row[field.name] = field.shape.kind === 'text' ? `${round(segment.end - segment.start)}s` : round(segment.end - segment.start);
    else if (WORDS.test(key) && (field.shape.kind === 'text' || field.shape.kind === 'any')) row[field.name] = excerpt(segment.text, 16);
    else row[field.name] = missing(field.shape.kind === 'any' ? { kind: 'text' } : field.shape, `${path}.${field.name}`, unfilled);
  }
  return row;
}

function scalarValue(value: unknown, shape: Shape, path: string, unfilled: string[]): unknown {
  if (shape.kind === 'text') {
    const text = textOf(value);
    return text === undefined ? missing(shape, path, unfilled) : text;
  }
  if (shape.kind === 'number') {
    const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : undefined;
    return number === undefined ? missing(shape, path, unfilled) : number;
  }
  if (shape.kind === 'boolean') return typeof value === 'boolean' ? value : missing(shape, path, unfilled);
  if (shape.kind === 'enum') {
    // Only an option itself: a fact that is none of them (transcript text, a title) is not a choice.
    const text = textOf(value)?.trim().toLowerCase();
    return shape.options.find((option) => option.toLowerCase() === text) ?? missing(shape, path, unfilled);
  }
  return value ?? null;
}

/** A fact as text: a list of words joined, a number written out; objects are not text. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string' || typeof entry === 'number')) return value.join(', ');
  return undefined;
}

const isScalar = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function pick(row: Record<string, unknown>, fields: FieldSpec[]): Record<string, unknown> {
  if (fields.length === 0) return row;
  return Object.fromEntries(fields.map((field) => [field.name, row[field.name] ?? emptyOf(field.shape)]));
}

/** The empty value of a shape, noted as unfilled. */
function missing(shape: Shape, path: string, unfilled: string[]): unknown {
  unfilled.push(path);
  return emptyOf(shape);
}

function emptyOf(shape: Shape): unknown {
  switch (shape.kind) {
    case 'list':
      return [];
    case 'object':
      return Object.fromEntries(shape.fields.map((field) => [field.name, emptyOf(field.shape)]));
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return '';
  }
}

const round = (seconds: number) => Math.round(seconds * 10) / 10;

/** `MM:SS.s` (minutes past 59 keep counting), as analysis clients read shot times. */
export function mediaClock(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  const minutes = Math.floor(tenths / 600);
  const rest = (tenths % 600) / 10;
  return `${String(minutes).padStart(2, '0')}:${rest.toFixed(1).padStart(4, '0')}`;
}
