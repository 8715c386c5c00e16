/**
 * `tubekit mcp` beside the CLI, in one run: a tools/list and a read tool call over a warm stdio
 * session against the same read through the CLI (a process per call, as an agent without MCP
 * would run it), and the server's start-up (spawn to an initialized session) against
 * `tubekit --version`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execa } from 'execa';
import { median, timeMedian, type BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');

async function connect(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'tubekit-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env }));
  return client;
}

export async function mcpRows(): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-mcp-'));
  const env = { ...(process.env as Record<string, string>), TUBEKIT_DATA_DIR: dataDir, TUBEKIT_CONFIG_DIR: path.join(dataDir, 'config'), TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '' };
  try {
    await execa('node', [BIN, 'folders', 'create', 'Bench'], { env });
    // Start-up, interleaved with the CLI's so a burst of load hits both alike.
    const startup: number[] = [];
    const version: number[] = [];
    for (let run = 0; run < 10; run += 1) {
      let started = process.hrtime.bigint();
      const client = await connect(env);
      startup.push(Number(process.hrtime.bigint() - started) / 1e6);
      await client.close();
      started = process.hrtime.bigint();
      await execa('node', [BIN, '--version'], { env });
      version.push(Number(process.hrtime.bigint() - started) / 1e6);
    }

    const client = await connect(env);
    try {
      await client.callTool({ name: 'list_folders', arguments: {} });
      const toolsList = await timeMedian(30, () => client.listTools());
      const toolCall = await timeMedian(30, () => client.callTool({ name: 'list_folders', arguments: {} }));
      const cliCall = await timeMedian(10, () => execa('node', [BIN, 'folders', 'list', '--json'], { env }));
      const baseline = { name: 'tubekit folders list --json', value: cliCall };
      return [
        { name: 'mcp: tools/list round trip', value: toolsList, unit: 'ms', baseline },
        { name: 'mcp: list_folders tool call round trip', value: toolCall, unit: 'ms', baseline },
        { name: 'mcp: start-up to an initialized session', value: median(startup), unit: 'ms', baseline: { name: 'tubekit --version', value: median(version) } },
      ];
    } finally {
      await client.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
