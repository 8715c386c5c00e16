/**
 * `--jq <expression>`: filters JSON output with jq itself (jq compiled to WebAssembly, the
 * `jq-wasm` package), loaded only when the flag is used so every other run starts as fast as before.
 * As in gh, strings print raw; other values as JSON (indented on a terminal, compact when piped).
 */
import { ExitCode } from '../core/exit-codes.js';
import { CliError } from './errors.js';

/** jq's own message without its "jq: error…:" prefix and the "N compile error" trailer. */
function jqMessage(error: unknown): { text: string; compile: boolean } {
  const raw = (error as Error)?.message ?? String(error);
  const compile = /compile error/.test(raw);
  const text = raw
    .split('\n')
    .filter((line) => line.trim() && !/^jq: \d+ compile errors?$/.test(line.trim()))
    .map((line) => line.replace(/^(Failed to execute raw query: )?jq: error(?: \(at [^)]*\))?: /, '').trim())
    .join(' ');
  return { text, compile };
}

export async function filterWithJq(body: unknown, expression: string, indent: boolean): Promise<string> {
  const { raw } = await import('jq-wasm');
  try {
    return await raw(JSON.stringify(body ?? null), expression, indent ? ['-r'] : ['-r', '-c']);
  } catch (error) {
    const { text, compile } = jqMessage(error);
    throw compile
      ? new CliError(`--jq: the expression is not valid jq: ${text}`, ExitCode.usage, 'See https://jqlang.org/manual/ — e.g. --jq \'.folders[].name\'.', 'usage')
      : new CliError(`--jq: ${text}`, ExitCode.failure, undefined, 'jq_error');
  }
}
