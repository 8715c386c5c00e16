/**
 * `--jq` on a 400 KB body against `--json | jq`, side by side (interleaved) in one run: the same
 * `tubekit api GET` of a body served by a node:http server in this process, filtered inside
 * tubekit or by jq behind a pipe. Runs only where jq is on the PATH (the baseline needs it).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { median, type BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');
const RUNS = 9;
const EXPRESSION = '.channels[] | select(.monetized) | .channel_id';

/** About 400 KB of channel records, as a search answers them. */
function bigBody(): string {
  const channels = [];
  for (let index = 0; JSON.stringify(channels).length < 400_000; index += 1) {
    channels.push({ channel_id: `UC${String(index).padStart(22, '0')}`, channel_title: `Channel ${index} 料理`, subscriber_count: index * 37, tags: ['cooking', 'music'], monetized: index % 2 === 0 });
  }
  return JSON.stringify({ success: true, channels });
}

export async function jqRows(): Promise<BenchRow[]> {
  try {
    execFileSync('jq', ['--version'], { stdio: 'ignore' });
  } catch {
    console.error('bench jq: no jq on the PATH, so no baseline; skipped');
    return [];
  }
  const body = bigBody();
  const server = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-jq-'));
  const env = { ...process.env, TUBEKIT_DATA_DIR: dir, TUBEKIT_CONFIG_DIR: dir, TUBEKIT_API_KEY: 'bench', TUBEKIT_BASE_URL: baseUrl };
  const tubekit = `node ${BIN} api GET /api/channels`;
  const commands = {
    piped: `${tubekit} --json | jq -r -c '${EXPRESSION}'`,
    builtIn: `${tubekit} --jq '${EXPRESSION}'`,
  };
  try {
    const times: Record<keyof typeof commands, number[]> = { piped: [], builtIn: [] };
    const outputs: Record<string, string> = {};
    for (let run = 0; run < RUNS; run += 1) {
      for (const [name, command] of Object.entries(commands) as [keyof typeof commands, string][]) {
        const started = process.hrtime.bigint();
        outputs[name] = (await execa('sh', ['-c', command], { env })).stdout;
        times[name].push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    if (outputs.piped !== outputs.builtIn) throw new Error('--jq and | jq printed different output');
    return [
      {
        name: `--jq on a ${Math.round(body.length / 1000)} KB body (remote api GET)`,
        value: median(times.builtIn),
        unit: 'ms',
        baseline: { name: '--json | jq', value: median(times.piped) },
        budget: '≤ 1.5×',
      },
    ];
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
