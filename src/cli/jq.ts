/**
 * `--jq <expression>`: filters JSON output with jq itself. The system `jq` when it is on the PATH
 * (spawned, the body on its stdin: a 400 KB body takes milliseconds), else jq compiled to
 * WebAssembly (the `jq-wasm` package, seconds on such a body), loaded only then.
 * As in gh, strings print raw; other values as JSON (indented on a terminal, compact when piped).
 */
import { spawn } from 'node:child_process';
import { ExitCode } from '../core/exit-codes.js';
import { CliError } from '../core/client-errors.js';

/** jq's own message without its "jq: error…:" prefix and the "N compile error" trailer. */
function jqMessage(raw: string): { text: string; compile: boolean } {
  const compile = /compile error/.test(raw);
  const text = raw
    .split('\n')
    .filter((line) => line.trim() && !/^jq: \d+ compile errors?$/.test(line.trim()))
    .map((line) => line.replace(/^(Failed to execute raw query: )?jq: error(?: \(at [^)]*\))?: /, '').trim())
    .join(' ');
  return { text, compile };
}

function jqError(raw: string): CliError {
  const { text, compile } = jqMessage(raw);
  return compile
    ? new CliError(`--jq: the expression is not valid jq: ${text}`, ExitCode.usage, 'See https://jqlang.org/manual/ — e.g. --jq \'.folders[].name\'.', 'usage')
    : new CliError(`--jq: ${text}`, ExitCode.failure, undefined, 'jq_error');
}

/** What jq printed, or undefined when there is no `jq` on the PATH. */
function runSystemJq(json: string, expression: string, options: string[]): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    // jq 1.6 has no `--`: a leading space keeps an expression such as `-1` from reading as an option.
    const filter = expression.startsWith('-') ? ` ${expression}` : expression;
    const child = spawn('jq', [...options, filter]);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(undefined) : reject(error)));
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(stdout).toString('utf8'));
      else reject(jqError(Buffer.concat(stderr).toString('utf8') || `jq exited with code ${code}`));
    });
    // jq may exit (a compile error) before it reads its input.
    child.stdin.once('error', () => undefined);
    child.stdin.end(json);
  });
}

async function runEmbeddedJq(json: string, expression: string, options: string[]): Promise<string> {
  const { raw } = await import('jq-wasm');
  try {
    const output = await raw(json, expression, options);
    // jq-wasm drops the last line break that jq prints.
    return output === '' || output.endsWith('\n') ? output : `${output}\n`;
  } catch (error) {
    throw jqError((error as Error)?.message ?? String(error));
  }
}

/** Which jq runs: `system` (jq on the PATH, falling back to the embedded one) or `embedded`. */
export type JqEngine = 'system' | 'embedded';

export async function filterWithJq(body: unknown, expression: string, indent: boolean, engine: JqEngine = 'system'): Promise<string> {
  const json = JSON.stringify(body ?? null);
  const options = indent ? ['-r'] : ['-r', '-c'];
  const fromSystem = engine === 'system' ? await runSystemJq(json, expression, options) : undefined;
  return fromSystem ?? runEmbeddedJq(json, expression, options);
}
