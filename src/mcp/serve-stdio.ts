/**
 * MCP over stdio: JSON-RPC lines on stdin and stdout, nothing else on stdout. Runs until the
 * client closes stdin, or Ctrl-C / SIGTERM; calls still running are aborted (their long-polls end).
 */
import type { McpServer } from '@modelcontextprotocol/server';

/** Resolves when the client or a signal ends the session. */
function sessionEnd(): Promise<string> {
  return new Promise((resolve) => {
    process.stdin.once('end', () => resolve('stdin closed'));
    process.stdin.once('close', () => resolve('stdin closed'));
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
}

export async function serveOverStdio(factory: () => McpServer, trace: (line: string) => void): Promise<void> {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  const ended = sessionEnd();
  const handle = serveStdio(factory, { onerror: (error) => trace(`mcp transport: ${error.message}`) });
  trace('mcp serving on stdio');
  trace(`mcp session ended: ${await ended}`);
  await handle.close();
  // Nothing may keep the process alive once the session is over.
  process.stdin.destroy();
}
