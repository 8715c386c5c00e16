/**
 * MCP over streamable HTTP (stateless: a fresh server per request, as the SDK's handler serves it).
 * Every request must carry the API key as a bearer token, on loopback too (any process or user of
 * this machine reaches a loopback port); on loopback, Host and Origin are also checked against DNS
 * rebinding.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { McpServer } from '@modelcontextprotocol/server';

export const MCP_PATH = '/mcp';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
export const isLoopback = (host: string) => LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\./.test(host);

export interface HttpOptions {
  host: string;
  port: number;
  /** The key clients must send. */
  key: string;
  trace: (line: string) => void;
}

function bearerMatches(request: http.IncomingMessage, key: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function refuse(response: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

export interface RunningHttp {
  url: string;
  close(): Promise<void>;
}

export async function serveOverHttp(factory: () => McpServer, options: HttpOptions): Promise<RunningHttp> {
  const { createMcpHandler } = await import('@modelcontextprotocol/server');
  const { toNodeHandler, localhostHostValidation, localhostOriginValidation } = await import('@modelcontextprotocol/node');
  const handler = createMcpHandler(factory, { onerror: (error) => options.trace(`mcp http: ${error.message}`) });
  const handle = toNodeHandler(handler, { onerror: (error) => options.trace(`mcp http: ${error.message}`) });
  const loopback = isLoopback(options.host);
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) return refuse(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    if (loopback && (!validateHost(request, response) || !validateOrigin(request, response))) return;
    if (!bearerMatches(request, options.key)) {
      return refuse(response, 401, 'Send the API key as "Authorization: Bearer <key>".', { 'www-authenticate': 'Bearer' });
    }
    options.trace(`mcp http ${request.method} ${path}`);
    handle(request, response).catch((error: Error) => {
      options.trace(`mcp http: ${error.message}`);
      if (!response.headersSent) refuse(response, 500, 'Internal error.');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as { port: number };
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${address.port}${MCP_PATH}`,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
