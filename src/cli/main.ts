import { CommanderError } from 'commander';
import { ServiceError } from '../core/errors.js';
import { ExitCode, exitCodeForError } from '../core/exit-codes.js';
import { CliError } from './errors.js';
import { IO } from './io.js';
import { buildProgram } from './program.js';

/** Runs the CLI and returns its exit code; every error is reported here, once. */
export async function main(argv: string[] = process.argv, io: IO = IO.fromProcess()): Promise<number> {
  const { program, app } = buildProgram(io);
  const jsonMode = argv.includes('--json');
  if (jsonMode) {
    // Commander's own usage errors become the JSON error line below instead.
    program.configureOutput({
      writeOut: (text) => io.streams.stdout.write(text),
      writeErr: (text) => io.streams.stderr.write(text),
      outputError: () => {},
    });
  }
  try {
    if (argv.slice(2).some((arg) => arg === '--api-key' || arg.startsWith('--api-key='))) {
      throw new CliError('Keys are never accepted as flags (they would end up in shell history and process lists).', ExitCode.usage, 'Set TUBEKIT_API_KEY, use `tubekit auth login`, or TUBEKIT_API_KEY_FILE.');
    }
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (error) {
    return report(io, error, jsonMode);
  } finally {
    await app.close().catch(() => undefined);
  }
}

function report(io: IO, error: unknown, jsonMode: boolean): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return ExitCode.ok;
    if (jsonMode) writeJsonError(io, null, 'usage', error.message.replace(/^error: /, ''));
    return ExitCode.usage;
  }
  const exitCode = exitCodeForError(error);
  if ((error as { alreadyReported?: boolean }).alreadyReported) return exitCode;
  if (jsonMode) {
    const status = error instanceof ServiceError ? error.status : null;
    const code = error instanceof ServiceError || error instanceof CliError ? error.code : 'internal';
    writeJsonError(io, status, code, (error as Error).message, (error as ServiceError).hint);
    return exitCode;
  }
  const hint = error instanceof ServiceError || error instanceof CliError ? error.hint : undefined;
  if (!(error instanceof ServiceError) && !(error instanceof CliError)) {
    io.error(io.red(`error: ${(error as Error).message ?? String(error)}`));
    if (io.verbose && (error as Error).stack) io.error((error as Error).stack!);
    else io.error(io.dim('Run again with --verbose for details.'));
    return exitCode;
  }
  if (hint) io.error(io.dim(hint));
  io.error(io.red(`error: ${error.message}`));
  return exitCode;
}

function writeJsonError(io: IO, status: number | null, code: string, message: string, hint?: string): void {
  const body: Record<string, unknown> = { status, code, message };
  if (hint) body.hint = hint;
  io.error(JSON.stringify({ error: body }));
}
