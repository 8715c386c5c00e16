/**
 * The built `tubekit mcp` as an MCP client sees it: the SDK's Client over a stdio transport that
 * also records every line the server writes to stdout, so a test can check that nothing but
 * JSON-RPC ever reaches it, and that holds the child process, for exit codes and signals.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { BIN } from './cli.js';

/** A stdio client transport over a child we spawn ourselves, keeping its raw stdout lines. */
class RecordingStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly stdoutLines: string[] = [];
  stderr = '';
  private pending = '';

  constructor(readonly child: ChildProcess) {}

  async start(): Promise<void> {
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      this.pending += chunk;
      let newline: number;
      while ((newline = this.pending.indexOf('\n')) >= 0) {
        const line = this.pending.slice(0, newline);
        this.pending = this.pending.slice(newline + 1);
        this.stdoutLines.push(line);
        try {
          this.onmessage?.(JSON.parse(line) as JSONRPCMessage);
        } catch (error) {
          this.onerror?.(error as Error);
        }
      }
    });
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.child.once('exit', () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.child.stdin!.writable) throw new Error('the server has closed its stdin');
    this.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }

  async close(): Promise<void> {
    this.child.stdin!.end();
  }

  /** Bytes written to stdout after the last newline (must stay empty). */
  get unterminated(): string {
    return this.pending;
  }
}

export interface McpSession {
  client: Client;
  child: ChildProcess;
  transport: RecordingStdioTransport;
  /** Ends stdin and resolves with the exit code (or the signal). */
  close(): Promise<number | string | null>;
  /** Resolves with the exit code once the child has exited. */
  exited: Promise<number | string | null>;
}

export async function startMcp(args: string[], env: Record<string, string>): Promise<McpSession> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const transport = new RecordingStdioTransport(child);
  const client = new Client({ name: 'tubekit-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    child,
    transport,
    exited,
    async close() {
      child.stdin!.end();
      return exited;
    },
  };
}

/** Every line the server wrote to stdout is one JSON-RPC 2.0 message. */
export function nonJsonRpcLines(transport: RecordingStdioTransport): string[] {
  const bad = transport.stdoutLines.filter((line) => {
    try {
      return (JSON.parse(line) as { jsonrpc?: string }).jsonrpc !== '2.0';
    } catch {
      return true;
    }
  });
  return transport.unterminated === '' ? bad : [...bad, transport.unterminated];
}

export type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

/** The error a failed tool call carries in its structured content. */
export function toolError(result: ToolResult): { status: number | null; code: string; message: string; hint?: string } {
  if (!result.isError) throw new Error(`expected the tool call to fail, but it gave ${JSON.stringify(result.structuredContent).slice(0, 300)}`);
  return (result.structuredContent as { error: never }).error;
}
