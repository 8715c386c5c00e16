/** Cold start of the CLI against bare node, and serve throughput against a bare node:http server. */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { Engine } from '../src/engine/engine.js';
import { startServer } from '../src/server/serve.js';
import { timeMedian, type BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');

export async function cliAndServeRows(): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-'));
  const env = { ...process.env, TUBEKIT_DATA_DIR: dataDir, TUBEKIT_CONFIG_DIR: path.join(dataDir, 'config'), TUBEKIT_BASE_URL: '' };
  try {
    await execa('node', [BIN, 'folders', 'create', 'Bench'], { env });
    const runs = 15;
    const bare = await timeMedian(runs, () => execa('node', ['-e', '0']));
    const version = await timeMedian(runs, () => execa('node', [BIN, '--version'], { env }));
    const foldersList = await timeMedian(runs, () => execa('node', [BIN, 'folders', 'list', '--json'], { env }));
    const baseline = { name: 'node -e 0', value: bare };
    const rows: BenchRow[] = [
      { name: 'cold start: tubekit --version', value: version, unit: 'ms', baseline, budget: '≤ 2.5×' },
      { name: 'local: tubekit folders list --json', value: foldersList, unit: 'ms', baseline, budget: '< 150 ms' },
    ];
    rows.push(...(await serveThroughput(dataDir)));
    return rows;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function serveThroughput(dataDir: string): Promise<BenchRow[]> {
  const { default: autocannon } = await import('autocannon');
  const engine = Engine.open({ dataDir });
  const key = engine.identity.createUserWithKey('ultimate', []).key;
  const server = await startServer({ engine, port: 0 });
  const body = JSON.stringify(await (await fetch(`${server.url}/api/folders`, { headers: { authorization: `Bearer ${key}` } })).json());
  const bare = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/api/folders`;
  const load = async (url: string) => {
    const result = await autocannon({ url, connections: 10, duration: 3, headers: { authorization: `Bearer ${key}` } });
    return result.requests.average;
  };
  try {
    const bareRate = await load(bareUrl);
    const serveRate = await load(`${server.url}/api/folders`);
    return [
      {
        name: 'serve: GET /api/folders throughput',
        value: serveRate,
        unit: 'req/s',
        baseline: { name: 'bare node:http', value: bareRate },
      },
    ];
  } finally {
    await server.close();
    await new Promise((resolve) => bare.close(resolve));
    engine.close();
  }
}
