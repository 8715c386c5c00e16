/**
 * Runs the built binary on a real pseudo-terminal with util-linux `script`, so terminal-only
 * behaviour (prompts, the spinner, Ctrl-C typed as a key) is tested as a person meets it.
 * stdin, stdout and stderr are the terminal unless `stdoutFile` sends stdout to a file.
 */
import { execaSync, execa } from 'execa';
import { BIN, type CliSandbox } from './cli.js';

export const hasScript = (() => {
  try {
    return execaSync('script', ['--version'], { reject: false }).stdout.includes('util-linux');
  } catch {
    return false;
  }
})();

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export interface TerminalStep {
  /** Wait until the terminal shows this… */
  after: RegExp;
  /** …then type this (`\r` is Enter, `\u0003` is Ctrl-C). */
  keys: string;
}

export async function runOnTerminal(
  sandbox: CliSandbox,
  args: string[],
  options: { steps?: TerminalStep[]; stdoutFile?: string; env?: Record<string, string> } = {},
): Promise<{ screen: string; exitCode: number }> {
  const redirect = options.stdoutFile ? ` > ${quote(options.stdoutFile)}` : '';
  // A pseudo-terminal starts with no size; give it one so the spinner draws.
  const command = `stty cols 100 rows 30; exec node ${[BIN, ...args].map(quote).join(' ')}${redirect}`;
  const child = execa('script', ['-qec', command, '/dev/null'], {
    env: { ...sandbox.env, ...options.env, TERM: 'xterm' },
    reject: false,
    timeout: 60_000,
    stdin: 'pipe',
  });
  let screen = '';
  let unread = 0; // each step waits for output that came after the previous keys
  const steps = [...(options.steps ?? [])];
  child.stdout!.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    while (steps.length > 0 && steps[0]!.after.test(screen.slice(unread))) {
      child.stdin!.write(steps.shift()!.keys);
      unread = screen.length;
    }
  });
  const result = await child;
  return { screen, exitCode: result.exitCode ?? -1 };
}
