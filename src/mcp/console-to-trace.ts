/**
 * While tubekit serves MCP, a library's console line is a log: it goes to stderr with --verbose,
 * and nowhere otherwise. On stdio, stdout is the protocol's, and one stray line (the SDK itself
 * has a console.log) would break the client's stream.
 */
import { format } from 'node:util';

export function routeConsoleToTrace(trace: (line: string) => void): void {
  for (const method of ['log', 'info', 'debug', 'warn', 'error'] as const) {
    console[method] = (...args: unknown[]) => trace(format(...args));
  }
}
