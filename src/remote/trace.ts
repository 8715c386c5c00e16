/** Request tracing for --verbose: the key never appears, whether in a header or a query. */
export type TraceSink = (line: string) => void;

export { redactKey, redactUrl } from '../core/redact.js';
