/**
 * Child processes (ffmpeg) that die with this process, even when it is SIGKILLed and runs no
 * cleanup. A process group does not help there: nobody is left to signal it. So the child is
 * started through `sh`, which forks a watcher and then execs the command (same pid). The watcher
 * reads one line from fd 3, a socket whose other end only this process holds: when the child
 * ends we write "done" and the watcher leaves; when this process dies first the socket closes
 * unread and the watcher kills the child. Windows has no `sh`: the child is started directly.
 */
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { execa, type Options } from 'execa';

const watchAndExec = (target: string) =>
  [
    // The watcher keeps no pipe of ours open, so the child's output ends when the child does.
    `( IFS= read -r word <&3; [ "$word" = done ] || kill -9 ${target} ) </dev/null >/dev/null 2>&1 &`,
    'exec 3<&-;',
    'exec "$@"',
  ].join(' ');
const WATCH_AND_EXEC = watchAndExec('$$');
/** The child leads a process group of its own, and the whole group goes (a child that runs children: yt-dlp's ffmpeg). */
const WATCH_AND_EXEC_GROUP = watchAndExec('-$$');

type Stream = 'pipe' | 'ignore';

/** execa(command, args, options), the child killed if this process dies before it ends. */
export function execaTethered<O extends Omit<Options, 'stdin' | 'stdout' | 'stderr' | 'stdio'>>(
  command: string,
  args: readonly string[],
  options: O & { stdin?: Stream; stdout?: Stream; /** Start it as a process group, all killed together (`killGroup`). */ group?: boolean },
) {
  const { stdin = 'pipe', stdout = 'pipe', group = false, ...rest } = options;
  if (process.platform === 'win32') return execa(command, args, { ...rest, stdio: [stdin, stdout, 'pipe'] as const });
  const child = execa('/bin/sh', ['-c', group ? WATCH_AND_EXEC_GROUP : WATCH_AND_EXEC, 'tubekit-tether', command, ...args], {
    ...rest,
    ...(group ? { detached: true } : {}),
    stdio: [stdin, stdout, 'pipe', 'pipe'] as const,
  });
  (child as unknown as ChildProcess).once('exit', () => (child.stdio[3] as Writable).end('done\n'));
  return child;
}

/** Kills a child started with `group: true` and every process it started (on Windows, the child). */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
  } catch {
    // Already gone.
  }
}
