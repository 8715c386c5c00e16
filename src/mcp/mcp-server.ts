/**
 * The MCP server: the selected tools of the tool table, registered on the official SDK's McpServer,
 * each calling the one Service. The SDK is imported here, on demand, so only `tubekit mcp` loads it.
 *
 * Arguments are not validated by the SDK: each route validates its own input (in the engine, or in
 * `serve` for the remote client), so a bad argument fails with exactly the route's 400 message.
 * The SDK only advertises the route's JSON Schema.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { Service } from '../core/service.js';
import { VERSION } from '../core/version.js';
import { callTool, type ToolCallContext } from './tool-calls.js';
import type { ToolDef } from './tool-table.js';

/** A Standard Schema that hands the route its arguments untouched and shows the route's JSON Schema. */
function routeSchema(jsonSchema: Record<string, unknown>) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'tubekit',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  };
}

const INSTRUCTIONS = [
  'tubekit: voices and text-to-speech, channel research and video tools, on the engine this server was started on.',
  'Submit tools (generate_tts, start_video_analysis, process_channel) return a job at once; wait for it with wait_for_job or poll get_job / get_channel_job.',
  'Files come back as resource links (URL, type, size). Errors are results with isError, the status and code in structured content; after a 429, wait retry_after_seconds.',
].join('\n');

export interface McpServerOptions {
  tools: ToolDef[];
  service: Service;
  /** A line for --verbose (stderr); never given a key. */
  trace: (line: string) => void;
  explain?: ToolCallContext['explain'];
  files: ToolCallContext['files'];
}

/** Makes a fresh McpServer per connection (stdio) or per request (stateless HTTP). */
export async function mcpServerFactory(options: McpServerOptions): Promise<() => McpServer> {
  const { McpServer } = await import('@modelcontextprotocol/server');
  const schemas = new Map(options.tools.map((tool) => [tool.name, routeSchema(tool.inputSchema)]));
  return () => {
    const server = new McpServer({ name: 'tubekit', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
    for (const tool of options.tools) {
      server.registerTool(
        tool.name,
        { title: tool.summary, description: tool.description, inputSchema: schemas.get(tool.name)!, annotations: { title: tool.summary, ...tool.annotations } },
        async (args, ctx) => {
          const started = performance.now();
          const progressToken = ctx.mcpReq._meta?.progressToken;
          const context: ToolCallContext = { service: options.service, signal: ctx.mcpReq.signal, explain: options.explain, files: options.files };
          if (progressToken !== undefined) {
            context.progress = ({ elapsedSeconds, totalSeconds, message }) =>
              ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress: elapsedSeconds, total: totalSeconds, message } });
          }
          const result = await callTool(tool, (args ?? {}) as Record<string, unknown>, context);
          const outcome = result.isError ? `error ${JSON.stringify((result.structuredContent.error as { code?: string } | undefined)?.code ?? 'job_failed')}` : 'ok';
          options.trace(`mcp ${tool.name} → ${outcome} (${Math.round(performance.now() - started)} ms)`);
          return result;
        },
      );
    }
    return server;
  };
}
