/** Request tracing for --verbose: the key never appears, whether in a header or a query. */
export type TraceSink = (line: string) => void;

export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1[redacted]');
}

export function redactKey(key: string): string {
  return key.length > 6 ? `${key.slice(0, 3)}…[redacted]` : '[redacted]';
}
