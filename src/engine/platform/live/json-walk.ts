/** Small readers over InnerTube JSON, whose renderers nest at depths that change between releases. */
export type Json = unknown;

/** Every value under `key`, depth first, in document order. */
export function findAll(node: Json, key: string, out: Json[] = []): Json[] {
  if (Array.isArray(node)) {
    for (const item of node) findAll(item, key, out);
  } else if (node && typeof node === 'object') {
    for (const [name, value] of Object.entries(node)) {
      if (name === key) out.push(value);
      findAll(value, key, out);
    }
  }
  return out;
}

/** The first value under `key`, depth first. */
export function findFirst(node: Json, key: string): Json | undefined {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findFirst(item, key);
      if (found !== undefined) return found;
    }
  } else if (node && typeof node === 'object') {
    const record = node as Record<string, Json>;
    if (key in record) return record[key];
    for (const value of Object.values(record)) {
      const found = findFirst(value, key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Follows a path of keys; undefined as soon as one is missing. */
export function at(node: Json, ...path: Array<string | number>): Json | undefined {
  let current = node;
  for (const step of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, Json>)[step];
  }
  return current;
}

/** The text of `{content}`, `{simpleText}`, `{runs:[{text}]}` or a plain string. */
export function textOf(node: Json): string | undefined {
  if (typeof node === 'string') return node;
  if (!node || typeof node !== 'object') return undefined;
  const record = node as Record<string, Json>;
  if (typeof record.content === 'string') return record.content;
  if (typeof record.simpleText === 'string') return record.simpleText;
  if (Array.isArray(record.runs)) return record.runs.map((run) => textOf(run) ?? (run as { text?: string }).text ?? '').join('');
  if (typeof record.text === 'string') return record.text;
  if (record.text && typeof record.text === 'object') return textOf(record.text);
  return undefined;
}

export const asString = (value: Json): string | undefined => (typeof value === 'string' ? value : undefined);

/** The largest image of a `{sources|thumbnails: [{url, width}]}` list. */
export function largestImage(node: Json): string {
  const list = (at(node, 'sources') ?? at(node, 'thumbnails') ?? node) as Json;
  if (!Array.isArray(list) || list.length === 0) return '';
  const best = [...list].sort((a, b) => ((b as { width?: number }).width ?? 0) - ((a as { width?: number }).width ?? 0))[0];
  const url = (best as { url?: string }).url ?? '';
  return url.startsWith('//') ? `https:${url}` : url;
}
