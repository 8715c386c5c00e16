import { type Command, CommanderError } from 'commander';
import { ServiceError } from '../core/errors.js';
import { ExitCode, exitCodeForError } from '../core/exit-codes.js';
import type { CliApp } from './app.js';
import { CliError, cancelled, describeSystemError, jsonErrorLine } from '../core/client-errors.js';
import { withAuthHint } from './auth-hint.js';
import { IO } from './io.js';
import { buildProgram } from './program.js';
import { clipEchoes } from '../core/echo-text.js';

/** Runs the CLI and returns its exit code; every error is reported here, once. */
export async function main(argv: string[] = process.argv, io: IO = IO.fromProcess()): Promise<number> {
  const { program, app } = await buildProgram(io, argv);
  const jsonMode = argv.some((arg) => arg === '--json' || arg === '--jq' || arg.startsWith('--jq='));
  // Commander's own usage errors (and the help it shows for a missing subcommand) become the
  // JSON error line below instead. Subcommands copied the output settings when they were made.
  if (jsonMode) forEachCommand(program, silenceCommanderErrors(io));
  try {
    if (argv.slice(2).some((arg) => arg === '--api-key' || arg.startsWith('--api-key='))) {
      throw new CliError('Keys are never accepted as flags (they would end up in shell history and process lists).', ExitCode.usage, 'Set TUBEKIT_API_KEY, use `tubekit auth login`, or TUBEKIT_API_KEY_FILE.');
    }
    await program.parseAsync(argv);
    await app.flushJson();
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (error) {
    // A body printed before the failure (a failed job's) still goes through the filter.
    const unfiltered = await app.flushJson().then(() => undefined, (jqError: unknown) => jqError);
    return report(io, withAuthHint(unfiltered ?? error, app), jsonMode);
  } finally {
    await app.close().catch(() => undefined);
  }
}

function forEachCommand(command: Command, visit: (command: Command) => void): void {
  visit(command);
  for (const child of command.commands) forEachCommand(child, visit);
}

const silenceCommanderErrors = (io: IO) => (command: Command) => {
  command.showHelpAfterError(false).configureOutput({
    writeOut: (text) => io.streams.stdout.write(text),
    writeErr: () => {},
    outputError: () => {},
  });
};

function report(io: IO, error: unknown, jsonMode: boolean): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
    // `tubekit help` asks for help (exit 0); `tubekit folders` forgot the subcommand (help on stderr).
    if (error.code === 'commander.help') {
      if (error.exitCode === 0) return ExitCode.ok;
      if (jsonMode) io.error(jsonErrorLine(new CliError('A subcommand is missing.', ExitCode.usage, 'Run the command with --help to see its subcommands.', 'usage')));
      return ExitCode.usage;
    }
    if (jsonMode) io.error(jsonErrorLine(new CliError(error.message.replace(/^error: /, ''), ExitCode.usage, undefined, 'usage')));
    return ExitCode.usage;
  }
  // Ctrl-C at a prompt is a cancellation, like declining it.
  if ((error as Error | undefined)?.name === 'ExitPromptError') error = cancelled('Cancelled; nothing was changed.');
  if ((error as { alreadyReported?: boolean }).alreadyReported) return exitCodeForError(error);
  error = describeSystemError(error) ?? error;
  const exitCode = exitCodeForError(error);
  if (jsonMode) {
    io.error(jsonErrorLine(error));
    return exitCode;
  }
  if (!(error instanceof ServiceError) && !(error instanceof CliError)) {
    io.error(io.red(`error: ${clipEchoes((error as Error).message ?? String(error))}`));
    if (io.verbose && (error as Error).stack) io.error((error as Error).stack!);
    else io.error(io.dim('Run again with --verbose for details.'));
    return exitCode;
  }
  // What went wrong first, then what to do about it.
  io.error(io.red(`error: ${clipEchoes(error.message)}`));
  if (error.hint) io.error(io.dim(clipEchoes(error.hint)));
  return exitCode;
}
