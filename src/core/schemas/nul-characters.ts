/**
 * U+0000 in any text field is refused before the input reaches a handler or a database (PostgreSQL
 * cannot store it in text, and SQLite's full-text quoting would keep it): a 400 naming the field.
 */
import { badRequest } from '../errors.js';

export function refuseNulCharacters(input: unknown): void {
  const field = nulField(input, '');
  if (field !== undefined) {
    throw badRequest(`Invalid request: ${field || 'the input'}: must not contain a NUL character (U+0000).`, 'Remove the NUL byte (%00) from the value.');
  }
}

/** The path of the first string holding U+0000 (`filters.q`, `channel_ids[2]`), or undefined. */
function nulField(value: unknown, at: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at : undefined;
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value) || value instanceof Uint8Array) return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulField(item, `${at}[${index}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    // An upload's bytes may hold anything; its name may not.
    if (key === 'data' && (Buffer.isBuffer(item) || item instanceof Uint8Array)) continue;
    const name = at ? `${at}.${key}` : key;
    if (key.includes('\u0000')) return name;
    const found = nulField(item, name, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
