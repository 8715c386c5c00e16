import { type Command, Option } from 'commander';
import type { PublicFetcher } from '../../engine/platform/factory/public-fetcher.js';
import type { ToolDef } from '../../mcp/tool-table.js';
import type { CliApp } from '../app.js';
import { parseWholeNumber } from '../arguments.js';
import { withAuthHint } from '../auth-hint.js';
import { usageError } from '../../core/client-errors.js';
import { withExamples } from '../help.js';
import { listenError, untilStopped } from '../listen.js';
import { printTable } from '../output.js';

interface McpOptions {
  transport: 'stdio' | 'http';
  host: string;
  port: string;
  readOnly?: boolean;
  toolsets?: string;
  listTools?: boolean;
}

export function registerMcp(program: Command, app: CliApp): void {
  withExamples(
    program
      .command('mcp')
      .description('Serve every feature as MCP tools for AI agents (stdio, or streamable HTTP), on the selected engine')
      .addOption(new Option('--transport <kind>', 'stdio (for a client that starts tubekit) or http').choices(['stdio', 'http']).default('stdio'))
      .option('--port <port>', 'http: port; 0 picks a free one', '8788')
      .option('--host <host>', 'http: interface to listen on; clients always send the API key as a bearer token', '127.0.0.1')
      .option('--read-only', 'expose only the tools that change nothing')
      .option('--toolsets <list>', 'only these toolsets: voices,channels,media,workspace,research,collabs,alerts (default: all; or TUBEKIT_MCP_TOOLSETS)')
      .option('--list-tools', 'print the tool table (name, toolset, read-only, summary) and exit'),
    [
      'tubekit mcp                                         # stdio, for Claude Desktop, VS Code, Cursor',
      'tubekit mcp --read-only --toolsets research,collabs',
      'tubekit --base-url https://api.example.com mcp      # the same tools on a remote service',
      'tubekit mcp --transport http --port 8788            # http://127.0.0.1:8788/mcp',
      'tubekit mcp --list-tools --toolsets voices',
    ],
  ).action(async (options: McpOptions) => {
    // Only this command loads the MCP modules (and the SDK they import on demand).
    const { parseToolsets } = await import('../../mcp/toolsets.js');
    const { selectTools } = await import('../../mcp/tool-table.js');
    const fromFlag = options.toolsets !== undefined;
    const toolsets = parseToolsets(fromFlag ? options.toolsets : app.io.streams.env.TUBEKIT_MCP_TOOLSETS, fromFlag ? '--toolsets' : 'TUBEKIT_MCP_TOOLSETS');
    const tools = selectTools({ readOnly: Boolean(options.readOnly), toolsets });
    if (options.listTools) await printToolTable(app, tools);
    else await serveTools(app, tools, options);
  });
}

async function printToolTable(app: CliApp, tools: ToolDef[]): Promise<void> {
  const rows = tools.map((tool) => ({ name: tool.name, toolset: tool.group, read_only: tool.annotations.readOnlyHint, summary: tool.summary }));
  await app.render(rows, (list) =>
    printTable(app.io, list, [
      { header: 'name', value: (row) => row.name },
      { header: 'toolset', value: (row) => row.toolset },
      { header: 'read-only', value: (row) => (row.read_only ? 'yes' : 'no') },
      { header: 'summary', value: (row) => row.summary },
    ]),
  );
}

/**
 * Over HTTP, clients must send the key tubekit itself uses, loopback included (any local process or
 * user could reach an open port); without one there is nothing to check.
 */
function keyForHttp(app: CliApp, host: string, loopback: boolean): string {
  const key = app.settings.apiKey;
  if (key) return key;
  throw usageError(
    loopback
      ? `--transport http needs an API key for clients to send, even on ${host}, and there is none to check.`
      : `--host ${host} serves the tools beyond this machine, so clients must send a key, and there is none to check.`,
    'Set TUBEKIT_API_KEY (create one with `tubekit engine keys create`), or use --transport stdio.',
  );
}

async function serveTools(app: CliApp, tools: ToolDef[], options: McpOptions): Promise<void> {
  const trace = (line: string) => app.io.trace(line);
  const http = options.transport === 'http';
  const port = http ? parseWholeNumber(options.port, '--port', { min: 0, max: 65535 }) : 0;
  const { isLoopback, serveOverHttp } = await import('../../mcp/serve-http.js');
  const key = http ? keyForHttp(app, options.host, isLoopback(options.host)) : undefined;

  const { routeConsoleToTrace } = await import('../../mcp/console-to-trace.js');
  routeConsoleToTrace(trace);
  const service = await app.serviceForServer();
  const { mcpServerFactory } = await import('../../mcp/mcp-server.js');
  const env = app.io.streams.env;
  let publicFetcher: Promise<PublicFetcher> | undefined;
  const fetchPublic = () => {
    // A file is larger than a store's page: the route's own limit bounds it (maxBytes per call); the time allows for it.
    publicFetcher ??= import('../../engine/platform/factory/public-fetcher.js').then(({ openPublicFetcher }) => openPublicFetcher(env, 60_000));
    return publicFetcher;
  };
  const files = { transport: options.transport, fetchPublic };
  const factory = await mcpServerFactory({ tools, service, trace, explain: (error) => withAuthHint(error, app), files });
  trace(`mcp: ${tools.length} tools on the ${service.target.mode} engine (${service.target.location})`);

  if (!http) {
    const { serveOverStdio } = await import('../../mcp/serve-stdio.js');
    await serveOverStdio(factory, trace);
    return;
  }
  const running = await serveOverHttp(factory, { host: options.host, port, key: key!, trace }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, options.host, port);
  });
  app.io.out(running.url);
  app.io.note(`Serving ${tools.length} MCP tools at ${running.url} (clients send the API key as a bearer token). Ctrl-C stops.`);
  await untilStopped();
  await running.close();
}
