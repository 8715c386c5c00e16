/**
 * Serve throughput against a bare node:http server returning the same bytes, both in one child
 * process (bench/serve-child.ts) loaded by autocannon from this one; and the child's memory while
 * it is loaded: its peak, and whether a second identical load grows it further.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { median, type BenchRow } from './table.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'serve-child.js');
const SECONDS = Number(process.env.BENCH_SERVE_SECONDS ?? 2);
const ROUNDS = 3;

interface ChildInfo {
  serveUrl: string;
  bareUrl: string;
  key: string;
  /** Read routes the mixed load goes round. */
  mixed: string[];
}

/** Connections of the mixed load, and its budget: the 99th percentile of latency. */
const MIXED_CONNECTIONS = 20;
const MIXED_P99_BUDGET_MS = 100;

export async function serveRows(): Promise<BenchRow[]> {
  const { default: autocannon } = await import('autocannon');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-serve-'));
  const child = execa('node', [CHILD, dataDir], { stdout: 'pipe', stderr: 'inherit', buffer: false });
  try {
    const info = await firstLine<ChildInfo>(child.stdout!);
    const auth = { authorization: `Bearer ${info.key}` };
    const rate = async (url: string, headers: Record<string, string>) =>
      (await autocannon({ url, connections: 10, duration: SECONDS, headers })).requests.average;
    // Alternating rounds, medians of each: other work on a shared machine hits both sides alike.
    const pair = async (name: string, url: string, headers: Record<string, string>): Promise<BenchRow> => {
      const bare: number[] = [];
      const serve: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        bare.push(await rate(`${info.bareUrl}${url}`, headers));
        serve.push(await rate(`${info.serveUrl}${url}`, headers));
      }
      return { name, value: median(serve), unit: 'req/s', baseline: { name: 'bare node:http', value: median(bare) }, budget: '≥ 0.5×' };
    };

    // Untimed load first: the rows compare steady throughput, and without it the first row also
    // measured serve's JIT warming up (0.45× of bare node:http, against about 1× once warm).
    for (const url of [info.serveUrl, info.bareUrl]) await autocannon({ url: `${url}/api/folders`, connections: 10, duration: 1, headers: auth });

    const memory = new RssSampler(child.pid!);
    const startRss = memory.current();
    const rows = [await pair('serve: GET /api/folders (authenticated)', '/api/folders', auth)];
    const afterFirst = memory.current();
    rows.push(await pair('serve: GET /api/folders again (same load)', '/api/folders', auth));
    const afterSecond = memory.current();
    rows.push(await pair('serve: GET /api/health (authenticated)', '/api/health', auth));
    rows.push(await pair('serve: 401 (unknown key)', '/api/folders', { authorization: 'Bearer not-a-key' }));
    rows.push(await mixedLoad(autocannon, info, auth));
    memory.stop();
    rows.push(
      { name: 'serve: peak RSS during the throughput runs', value: memory.peakMb, unit: 'MB', baseline: { name: 'RSS at start', value: startRss } },
      {
        name: 'serve: RSS after a second identical /api/folders load',
        value: afterSecond,
        unit: 'MB',
        baseline: { name: 'RSS after the first', value: afterFirst },
        budget: '≈ 1× (settles)',
      },
    );
    return rows;
  } finally {
    child.kill('SIGTERM');
    await child.catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * 20 connections going round a mix of reads (health, folders, collab feed pages, rankings and one
 * channel, terminated search, network browse, the OpenAPI document): the p99 latency, beside that of
 * health alone under the same load.
 */
async function mixedLoad(autocannon: typeof import('autocannon').default, info: ChildInfo, headers: Record<string, string>): Promise<BenchRow> {
  const load = (paths: string[]) =>
    autocannon({
      url: info.serveUrl,
      connections: MIXED_CONNECTIONS,
      duration: SECONDS * 2,
      requests: paths.map((path) => ({ method: 'GET', path, headers })),
    });
  const health = await load(['/api/health']);
  const mixed = await load(info.mixed);
  if (mixed.non2xx > 0) throw new Error(`the mixed load got ${mixed.non2xx} answers that were not 2xx`);
  return {
    name: `serve: mixed reads over ${info.mixed.length} routes, ${MIXED_CONNECTIONS} connections (p99 latency)`,
    value: mixed.latency.p99,
    unit: 'ms',
    baseline: { name: 'GET /api/health alone', value: health.latency.p99 },
    budget: `≤ ${MIXED_P99_BUDGET_MS} ms`,
  };
}

async function firstLine<T>(stream: NodeJS.ReadableStream): Promise<T> {
  let buffered = '';
  for await (const chunk of stream) {
    buffered += String(chunk);
    const end = buffered.indexOf('\n');
    if (end >= 0) return JSON.parse(buffered.slice(0, end)) as T;
  }
  throw new Error('the serve bench child exited before it listened');
}

/** Samples a process's resident set from /proc every 50 ms (Linux), keeping the peak. */
class RssSampler {
  peakMb = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.current(), 50);
  }

  current(): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const mb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    this.peakMb = Math.max(this.peakMb, mb);
    return mb;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
