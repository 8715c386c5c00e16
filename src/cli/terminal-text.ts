/**
 * Text from the service shown to a person: control characters (escape sequences in a channel
 * title, a carriage return that rewrites the line, a bell) are taken out before a terminal sees
 * them. Only human output goes through here; `--json` prints the body exactly as it came.
 */

/** C0 controls but tab and line feed, DEL, and C1 controls (U+009B starts an escape sequence on some terminals). */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/** Every string in a body, with its control characters taken out (keys too). */
export function cleanForTerminal<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return stripControls(value) as T;
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => cleanForTerminal(item, depth + 1)) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [stripControls(key), cleanForTerminal(item, depth + 1)])) as T;
}
