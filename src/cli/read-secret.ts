import type { CliApp } from './app.js';
import { usageError } from '../core/client-errors.js';

/**
 * Reads a secret (a key) from a hidden prompt on a terminal, or from stdin when piped; never from
 * a flag or an argument. `pipeExample` shows how to pipe it in when neither is possible.
 */
export async function readSecret(app: CliApp, label: string, pipeExample: string): Promise<string> {
  if (app.io.canPrompt) {
    const { password } = await import('@inquirer/prompts');
    return (await password({ message: label, mask: '*' }, { output: app.io.streams.stderr as never })).trim();
  }
  if (app.io.stdinIsTerminal) throw usageError(`No ${label} given.`, `Pipe it on stdin: \`${pipeExample}\`.`);
  return (await app.io.readStdin()).trim();
}
