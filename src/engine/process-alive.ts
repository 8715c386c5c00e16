import fs from 'node:fs';

/**
 * Whether a process of this machine still runs. Signal 0 checks that a pid exists without touching
 * it (EPERM: it exists as someone else's) — but a process that was killed and that nobody has
 * reaped yet (a detached worker's parent gone or not waiting) is a zombie: its pid exists, it runs
 * nothing. On Linux its state in /proc says so (`Z`, or `X` while it is being removed); elsewhere
 * signal 0 is all there is.
 */
export function processAlive(pid: number): boolean {
  const state = linuxProcessState(pid);
  if (state !== undefined) return !['gone', 'Z', 'X', 'x'].includes(state);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The state letter of /proc/<pid>/stat, 'gone' when there is no such process, undefined without /proc. */
function linuxProcessState(pid: number): string | undefined {
  if (process.platform !== 'linux' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
  // "pid (command) S …": the command may hold spaces and parentheses, so read after the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) || undefined;
}
