/** Cold start of the CLI against bare node, measured side by side (interleaved) in one run. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { median, type BenchRow } from './table.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/tubekit.js');

export async function cliRows(): Promise<BenchRow[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tubekit-bench-'));
  const env = { ...process.env, TUBEKIT_DATA_DIR: dataDir, TUBEKIT_CONFIG_DIR: path.join(dataDir, 'config'), TUBEKIT_BASE_URL: '' };
  try {
    await execa('node', [BIN, 'folders', 'create', 'Bench'], { env });
    const commands = {
      bare: ['-e', '0'],
      version: [BIN, '--version'],
      foldersList: [BIN, 'folders', 'list', '--json'],
    };
    // Interleaved, so a burst of load from other processes hits every command alike.
    const times: Record<keyof typeof commands, number[]> = { bare: [], version: [], foldersList: [] };
    for (let run = 0; run < 15; run += 1) {
      for (const [name, args] of Object.entries(commands) as [keyof typeof commands, string[]][]) {
        const started = process.hrtime.bigint();
        await execa('node', args, { env });
        times[name].push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    }
    const baseline = { name: 'node -e 0', value: median(times.bare) };
    return [
      { name: 'cold start: tubekit --version', value: median(times.version), unit: 'ms', baseline, budget: '≤ 2.5×' },
      { name: 'local: tubekit folders list --json', value: median(times.foldersList), unit: 'ms', baseline, budget: '≤ 2.0×' },
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
