/**
 * Secrets never reach a log or a trace: these turn any text that might carry an API key into text
 * that does not, whichever way the key travelled (query, header, form field, or bare).
 */

const REDACTED = '[redacted]';

/** `?api_key=…` and `&api_key=…` in a URL or a path with a query. */
export function redactUrl(url: string): string {
  return maskEncodedKeyParams(url.replace(/([?&]api_key=)[^&#\s"]*/gi, `$1${REDACTED}`));
}

/** Whether a query parameter's name, percent-decoded as the server decodes it (`api%5fkey`, `%61pi_key`), is api_key. */
function namesKey(rawName: string): boolean {
  try {
    return decodeURIComponent(rawName.replace(/\+/g, ' ')).toLowerCase() === 'api_key';
  } catch {
    return false;
  }
}

/** Query parameters whose name is api_key once percent-decoded, masked wherever they are in the text. */
function maskEncodedKeyParams(text: string): string {
  return text.replace(/([?&])([^=&#\s"?]*%[0-9a-f]{2}[^=&#\s"?]*)=([^&#\s"',;]*)/gi, (whole, separator: string, name: string) =>
    namesKey(name) ? `${separator}${name}=${REDACTED}` : whole,
  );
}

/** Enough of a key to tell which one it was, never enough to use it. */
export function redactKey(key: string): string {
  return key.length > 6 ? `${key.slice(0, 3)}…${REDACTED}` : REDACTED;
}

const SECRET_PATTERNS: Array<[RegExp, string]> = [
  // Query parameters anywhere in the text, encoded or not.
  [/((?:[?&]|%3F|%26|\b)api_key(?:=|%3D))[^&#\s"',;%]*/gi, `$1${REDACTED}`],
  // Authorization headers as text or as JSON fields.
  [/(\bauthorization"?\s*[:=]\s*"?\s*(?:bearer|basic)\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
  [/(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1${REDACTED}`],
  // A multipart field named api_key: its value follows the part headers.
  [/(name="api_key"(?:\r?\n[^\r\n]*)*?\r?\n\r?\n)[^\r\n]*/gi, `$1${REDACTED}`],
  // JSON fields named like a key.
  [/("(?:api_key|apiKey|key)"\s*:\s*")[^"]*/g, `$1${REDACTED}`],
  // A bare key of this service's shape, wherever it sits (even glued to an encoded `=`).
  [/tk_[A-Za-z0-9]{8,}/g, `tk_${REDACTED}`],
];

/** Any line of text with every API key in it replaced. */
export function redactSecrets(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) result = result.replace(pattern, replacement);
  return maskEncodedKeyParams(result);
}
