/** Real processes for tests of what outlives a killed one. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** The pid of a process that ran and is gone (reaped). */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** Whether a process runs and is not a zombie (a killed child not yet reaped is gone for our purpose). */
export function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Pids of the running processes whose command line contains `text` (Linux). */
export function processesMentioning(text: string): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text) && running(Number(name))) pids.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

/** Resolves once `check` holds, polling; rejects after `ms` naming `what`. */
export async function waitUntil(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
