/**
 * Cold start of the CLI against bare node, and a remote command against the same command in local
 * mode (through `tubekit serve` on this machine, so the network costs next to nothing), measured
 * side by side (interleaved) in one run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { median, type BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');

export async function cliRows(): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-'));
  const env = { ...process.env, TUBEKIT_DATA_DIR: dataDir, TUBEKIT_CONFIG_DIR: path.join(dataDir, 'config'), TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '' };
  const serve = execa('node', [BIN, 'serve', '--port', '0'], { env, buffer: false });
  try {
    await execa('node', [BIN, 'folders', 'create', 'Bench'], { env });
    const key = (await execa('node', [BIN, 'engine', 'keys', 'create', '--plan', 'ultimate'], { env })).stdout.trim();
    const remoteEnv = { ...env, TUBEKIT_BASE_URL: await servedUrl(serve), TUBEKIT_API_KEY: key };
    await execa('node', [BIN, 'folders', 'create', 'Bench'], { env: remoteEnv });
    const commands = {
      bare: { args: ['-e', '0'], env },
      version: { args: [BIN, '--version'], env },
      foldersList: { args: [BIN, 'folders', 'list', '--json'], env },
      remoteFoldersList: { args: [BIN, 'folders', 'list', '--json'], env: remoteEnv },
    };
    // Interleaved, so a burst of load from other processes hits every command alike.
    const times: Record<keyof typeof commands, number[]> = { bare: [], version: [], foldersList: [], remoteFoldersList: [] };
    for (let run = 0; run < 15; run += 1) {
      for (const [name, command] of Object.entries(commands) as [keyof typeof commands, { args: string[]; env: NodeJS.ProcessEnv }][]) {
        const started = process.hrtime.bigint();
        await execa('node', command.args, { env: command.env });
        times[name].push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    const baseline = { name: 'node -e 0', value: median(times.bare) };
    const local = median(times.foldersList);
    return [
      ...(await liveDirRows(dataDir)),
      { name: 'cold start: tubekit --version', value: median(times.version), unit: 'ms', baseline, budget: '≤ 2.5×' },
      { name: 'local: tubekit folders list --json', value: local, unit: 'ms', baseline, budget: '≤ 2.0×' },
      {
        name: 'remote: tubekit folders list --json (serve on this machine)',
        value: median(times.remoteFoldersList),
        unit: 'ms',
        baseline: { name: 'local mode', value: local },
        budget: '≤ baseline + 100 ms',
      },
    ];
  } finally {
    serve.kill('SIGTERM');
    await serve.catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The base URL `tubekit serve` prints on its first line. */
/**
 * A live data dir's commands that read no page (alerts status, a folder's channels from the index)
 * against the same on a sample data dir: neither loads youtubei.js nor undici. Requests would go to
 * a closed port, so a command that read the site would fail the bench.
 */
async function liveDirRows(root: string): Promise<BenchRow[]> {
  const dirs = { sample: path.join(root, 'sample-dir'), live: path.join(root, 'live-dir') };
  const envOf = (dir: string) => ({ ...process.env, TUBEKIT_DATA_DIR: dir, TUBEKIT_CONFIG_DIR: path.join(dir, 'config'), TUBEKIT_BASE_URL: '', TUBEKIT_API_KEY: '', TUBEKIT_PLATFORM_ORIGIN: 'http://127.0.0.1:9' });
  await execa('node', [BIN, 'engine', 'platform', 'live'], { env: envOf(dirs.live) });
  const folderOf = async (dir: string) => JSON.parse((await execa('node', [BIN, 'folders', 'create', 'Bench', '--json'], { env: envOf(dir) })).stdout).folder.id as number;
  const folders = { sample: await folderOf(dirs.sample), live: await folderOf(dirs.live) };
  const runs = {
    sampleAlerts: [BIN, 'alerts', 'status', '--json'],
    liveAlerts: [BIN, 'alerts', 'status', '--json'],
    sampleFolder: [BIN, 'folders', 'channels', String(folders.sample), '--json'],
    liveFolder: [BIN, 'folders', 'channels', String(folders.live), '--json'],
  };
  const times: Record<keyof typeof runs, number[]> = { sampleAlerts: [], liveAlerts: [], sampleFolder: [], liveFolder: [] };
  for (let run = 0; run < 9; run += 1) {
    for (const [name, args] of Object.entries(runs) as [keyof typeof runs, string[]][]) {
      const started = process.hrtime.bigint();
      await execa('node', args, { env: envOf(name.startsWith('live') ? dirs.live : dirs.sample) });
      times[name].push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return [
    { name: 'live data dir: tubekit alerts status --json (reads no page)', value: median(times.liveAlerts), unit: 'ms', baseline: { name: 'sample data dir', value: median(times.sampleAlerts) }, budget: '≤ 1.5×' },
    { name: 'live data dir: tubekit folders channels <id> --json (from the index)', value: median(times.liveFolder), unit: 'ms', baseline: { name: 'sample data dir', value: median(times.sampleFolder) }, budget: '≤ 1.5×' },
  ];
}

async function servedUrl(serve: ReturnType<typeof execa>): Promise<string> {
  let seen = '';
  for await (const chunk of serve.stdout!) {
    seen += String(chunk);
    const line = seen.split('\n').find((candidate) => candidate.startsWith('http'));
    if (line) return line.trim();
  }
  throw new Error('tubekit serve exited before it printed its address');
}
