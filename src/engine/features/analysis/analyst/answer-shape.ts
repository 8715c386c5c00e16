/**
 * The shape of the JSON a prompt asks for, read from how people write it: a key list with types
 * ("keys: summary (string), shots (list of {start, end, description}), metadata (object with
 * title, channel)"), one key per line ("- topics: list of strings"), or a JSON example
 * ({"shots": [{"start": "00:00.0", ...}]}), strict or loose (loose-example.ts). Quoted names
 * elsewhere are keys of unknown shape.
 */
import { looseExampleShape } from './loose-example.js';
import type { FieldSpec, Shape } from './shape.js';
export type { FieldSpec, Shape } from './shape.js';

const ANY: Shape = { kind: 'any' };
const TEXT: Shape = { kind: 'text' };

/** Where a typed key list starts: "with keys:", "fields", "the following keys", "schema:". */
const KEY_LIST_START = /\b(?:(?:keys|fields|properties|attributes|schema)\b\s*(?::|named|called|like|such as|as follows:?)?|(?:key|field|property)\s*(?::|named|called))\s*/i;
const NAME = /^[`"']?([A-Za-z_][\w]{0,40})[`"']?/;
const QUOTED_NAME = /[`"']([A-Za-z_][\w]{0,40})[`"']/g;
const IGNORED_NAMES = /^(json|the|a|an|with|keys?|and|or|following)$/i;

export function readAnswerShape(prompt: string): FieldSpec[] {
  const example = jsonExample(prompt);
  if (example) return example;
  const fields: FieldSpec[] = [];
  const start = KEY_LIST_START.exec(prompt);
  if (start) fields.push(...fieldList(listText(prompt.slice(start.index + start[0].length))));
  for (const match of prompt.matchAll(QUOTED_NAME)) {
    const name = match[1]!;
    if (!IGNORED_NAMES.test(name) && !fields.some((field) => field.name === name)) fields.push({ name, shape: ANY });
  }
  return fields;
}

/** The first `{…}` of the prompt that is JSON of an object (strict, else loose), as fields. */
function jsonExample(prompt: string): FieldSpec[] | null {
  for (let at = prompt.indexOf('{'); at >= 0; at = prompt.indexOf('{', at + 1)) {
    const end = closing(prompt, at);
    if (end < 0) return null;
    const text = prompt.slice(at, end + 1);
    try {
      const shape = exampleShape(JSON.parse(text) as unknown);
      if (shape.kind === 'object' && shape.fields.length > 0) return shape.fields;
    } catch {
      // Not strict JSON: perhaps an example written loosely, with a key and a colon.
      const loose = /["'\w]\s*:/.test(text) ? looseExampleShape(text, describedShape) : null;
      if (loose?.kind === 'object') return loose.fields;
      // Else a typed list like {start, end}: read as words instead.
    }
  }
  return null;
}

function exampleShape(value: unknown): Shape {
  if (typeof value === 'number') return { kind: 'number' };
  if (typeof value === 'boolean') return { kind: 'boolean' };
  if (typeof value === 'string') return describedShape(value) ?? TEXT;
  if (Array.isArray(value)) return { kind: 'list', item: value.length > 0 ? exampleShape(value[0]) : ANY };
  if (value && typeof value === 'object') {
    return { kind: 'object', fields: Object.entries(value).map(([name, inner]) => ({ name, shape: exampleShape(inner) })) };
  }
  return ANY;
}

/** Index of the bracket closing the one at `at`, or -1. */
function closing(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i += 1) {
    const char = text[i]!;
    if ('{[('.includes(char)) depth += 1;
    else if ('}])'.includes(char)) {
      depth -= 1;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The key list's text: up to a sentence end outside brackets, or the end of the prompt. */
function listText(rest: string): string {
  let depth = 0;
  for (let i = 0; i < rest.length; i += 1) {
    const char = rest[i]!;
    if ('{[('.includes(char)) depth += 1;
    else if ('}])'.includes(char)) depth = Math.max(0, depth - 1);
    else if (depth === 0 && char === '.' && (i + 1 === rest.length || /\s/.test(rest[i + 1]!))) {
      // A line list ("- a: string\n- b: …") goes on past a full stop inside one of its lines.
      const next = rest.slice(i + 1).trimStart();
      if (!/^[-*•]/.test(next)) return rest.slice(0, i);
    }
  }
  return rest;
}

/** Entries split at commas, semicolons, new lines and "and", outside brackets. */
function splitEntries(text: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if ('{[('.includes(char)) depth += 1;
    else if ('}])'.includes(char)) depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === ',' || char === ';' || char === '\n')) {
      entries.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  entries.push(current);
  return entries.flatMap((entry) => (/\(|\{|\[/.test(entry) ? [entry] : entry.split(/\s+(?:and|&)\s+/i))).map((entry) => entry.trim()).filter(Boolean);
}

function fieldList(text: string): FieldSpec[] {
  const fields: FieldSpec[] = [];
  for (const entry of splitEntries(text)) {
    const cleaned = entry.replace(/^(?:[-*•]|\d+[.)])\s*/, '').replace(/^(?:and|&)\s+/i, '');
    const name = NAME.exec(cleaned);
    if (!name || IGNORED_NAMES.test(name[1]!)) continue;
    const rest = cleaned.slice(name[0].length).trim();
    fields.push({ name: name[1]!, shape: typeShape(rest) });
  }
  return fields;
}

/** The shape after a key's name: "(string)", ": list of strings", "- object with a, b", "[{start, end}]". */
function typeShape(rest: string): Shape {
  let text = rest.replace(/^(?::|-|–|—|=|\bas\b|\bis\b)\s*/i, '').trim();
  if (text.startsWith('(') && closing(text, 0) === text.length - 1) text = text.slice(1, -1).trim();
  if (text === '') return ANY;
  return describedShape(text) ?? ANY;
}

/** A shape in words or brackets; undefined when the words name none. */
function describedShape(description: string): Shape | undefined {
  const text = description.trim();
  if (text.startsWith('{')) {
    const end = closing(text, 0);
    return { kind: 'object', fields: fieldList(text.slice(1, end < 0 ? undefined : end)) };
  }
  if (text.startsWith('[')) {
    const end = closing(text, 0);
    return { kind: 'list', item: describedShape(text.slice(1, end < 0 ? undefined : end)) ?? ANY };
  }
  const lower = text.toLowerCase();
  const options = enumOptions(text);
  if (options) return { kind: 'enum', options };
  const list = /^(?:an?\s+)?(?:list|array)s?\b(?:\s+(?:of|with)\s+(.*))?/s.exec(lower);
  if (list) return { kind: 'list', item: list[1] ? (describedShape(text.slice(text.length - list[1].length)) ?? ANY) : ANY };
  const object = /^(?:an?\s+)?(?:objects?|dict(?:ionary)?|maps?)\b(?:\s+(?:with|of|containing|having)\s*(?:keys|fields)?:?\s*(.*))?/s.exec(lower);
  if (object) return { kind: 'object', fields: object[1] ? fieldList(text.slice(text.length - object[1].length)) : [] };
  if (/^(?:an?\s+)?(?:strings?|text|str|sentences?|paragraphs?|words?|urls?|names?)\b/.test(lower)) return TEXT;
  if (/\b(?:mm|hh):ss/.test(lower)) return TEXT;
  if (/^(?:an?\s+)?(?:int(?:eger)?s?|numbers?|floats?|decimals?|seconds|counts?)\b/.test(lower)) return { kind: 'number' };
  if (/^(?:an?\s+)?(?:bool(?:ean)?s?|true\/false|yes\/no)\b/.test(lower)) return { kind: 'boolean' };
  return undefined;
}

/** "one of: wide, medium or close", "one of wide/close", "wide|medium|close": the options listed. */
function enumOptions(text: string): string[] | undefined {
  const oneOf = /^(?:(?:an?\s+)?(?:string|text|value)\s*,?\s*)?(?:one of|either)\s*:?\s*(.+)$/is.exec(text.trim());
  const list = oneOf ? oneOf[1]! : /\|/.test(text) && !/[{}[\]]/.test(text) ? text : undefined;
  if (list === undefined) return undefined;
  const options = list
    .split(/\s*(?:\||\/|,|\bor\b)\s*/i)
    .map((option) => option.trim().replace(/^["'`]|["'`.]$/g, '').trim())
    .filter((option) => option !== '' && option.length <= 40);
  return options.length > 1 ? options : undefined;
}
