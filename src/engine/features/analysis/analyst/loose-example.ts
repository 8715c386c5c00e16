/**
 * A JSON example as people write it in prompts when it is not strict JSON: bare or single-quoted
 * keys, trailing commas, `...` for more, and values that describe rather than show
 * (`"quality": 1-5`, `"type": "wide" | "close"`, `"count": <number>`). Read for its keys and their
 * shapes only; `describe` turns a value's words into a shape (answer-shape.ts).
 */
import type { Shape } from './shape.js';

const ANY: Shape = { kind: 'any' };

export function looseExampleShape(text: string, describe: (words: string) => Shape | undefined): Shape | null {
  let at = 0;
  const fail = (): never => {
    throw new Error('not an example');
  };
  const space = () => {
    while (at < text.length && /\s/.test(text[at]!)) at += 1;
  };
  const quoted = (): string => {
    const quote = text[at]!;
    const end = text.indexOf(quote, at + 1);
    if (end < 0) fail();
    const inner = text.slice(at + 1, end);
    at = end + 1;
    return inner;
  };
  /** Text up to the next `,`, `}` or `]` outside quotes and brackets. */
  const raw = (): string => {
    const from = at;
    let depth = 0;
    while (at < text.length) {
      const char = text[at]!;
      if (char === '"' || char === "'") {
        quoted();
        continue;
      }
      if ('{[('.includes(char)) depth += 1;
      else if (')]}'.includes(char)) {
        if (depth === 0) break;
        depth -= 1;
      } else if (char === ',' && depth === 0) break;
      at += 1;
    }
    return text.slice(from, at).trim();
  };
  const value = (): Shape => {
    space();
    const char = text[at];
    if (char === '{') return object();
    if (char === '[') return list();
    const words = raw();
    return rawShape(words, describe);
  };
  const object = (): Shape => {
    at += 1;
    const fields: Array<{ name: string; shape: Shape }> = [];
    for (;;) {
      space();
      if (text[at] === '}') {
        at += 1;
        return { kind: 'object', fields };
      }
      if (text.startsWith('...', at) || text[at] === '…') {
        raw();
      } else {
        let name: string;
        if (text[at] === '"' || text[at] === "'") name = quoted();
        else {
          const bare = /^[A-Za-z_][\w-]*/.exec(text.slice(at));
          if (!bare) fail();
          name = bare![0];
          at += name.length;
        }
        space();
        if (text[at] !== ':') fail();
        at += 1;
        const shape = value();
        if (!fields.some((field) => field.name === name)) fields.push({ name, shape });
      }
      space();
      if (text[at] === ',') at += 1;
      else if (text[at] !== '}') fail();
    }
  };
  const list = (): Shape => {
    at += 1;
    let item: Shape | undefined;
    for (;;) {
      space();
      if (text[at] === ']') {
        at += 1;
        return { kind: 'list', item: item ?? ANY };
      }
      if (text.startsWith('...', at) || text[at] === '…') raw();
      else {
        const shape = value();
        item ??= shape;
      }
      space();
      if (text[at] === ',') at += 1;
      else if (text[at] !== ']') fail();
    }
  };
  try {
    space();
    if (text[at] !== '{') return null;
    const shape = object();
    return shape.kind === 'object' && shape.fields.length > 0 ? shape : null;
  } catch {
    return null;
  }
}

/** A value written as words: a number, a range of numbers, alternatives, a type's name, or text. */
function rawShape(words: string, describe: (words: string) => Shape | undefined): Shape {
  const unquoted = words.replace(/^["']|["']$/g, '');
  if (/^-?\d+(?:\.\d+)?$/.test(words)) return { kind: 'number' };
  if (/^(?:true|false)$/i.test(words)) return { kind: 'boolean' };
  if (/^null$/i.test(words) || words === '') return ANY;
  // "1-5", "0 to 10": a score.
  if (/^-?\d+(?:\.\d+)?\s*(?:-|–|to)\s*-?\d+(?:\.\d+)?$/i.test(words)) return { kind: 'number' };
  if (words.includes('|')) {
    const options = words.split('|').map((option) => option.trim().replace(/^["']|["']$/g, '').trim()).filter(Boolean);
    if (options.length > 1) return { kind: 'enum', options };
  }
  return describe(unquoted.replace(/^<|>$/g, '')) ?? { kind: 'text' };
}
