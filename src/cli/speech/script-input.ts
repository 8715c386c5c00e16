import { usageError } from '../../core/client-errors.js';
import { readUserFile } from '../files.js';
import type { IO } from '../io.js';

/**
 * The script of `generate`: the argument, or `--file <path>`, or stdin (`-` as either).
 * Exactly one source, so a forgotten argument never silently waits on a terminal.
 */
export async function readScript(io: IO, argument: string | undefined, file: string | undefined): Promise<string> {
  if (argument !== undefined && file !== undefined) throw usageError('Give the script as an argument or with --file, not both.');
  const source = file ?? (argument === '-' ? '-' : undefined);
  if (source === '-') {
    if (io.stdinIsTerminal) throw usageError('Reading the script from stdin, but stdin is a terminal.', 'Pipe the text in: echo "Hello" | tubekit generate - --voice <id>');
    return io.readStdin();
  }
  if (source !== undefined) {
    return readUserFile(source, 'script file').toString('utf8');
  }
  if (argument === undefined) {
    throw usageError('Give the script to speak: tubekit generate "Hello there" --voice <id>', 'Or read it from a file with --file script.txt, or from stdin with -.');
  }
  return argument;
}
