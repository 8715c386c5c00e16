import { ExitCode } from '../core/exit-codes.js';
import { CliError } from '../core/client-errors.js';

/** Why a server (`serve`, `mcp --transport http`) could not listen, in words, with what to try instead. */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new CliError(`Port ${port} on ${host} is already in use.`, ExitCode.failure, 'Pick another with --port, or --port 0 for a free one.', 'address_in_use');
    case 'EACCES':
      return new CliError(`Not allowed to listen on ${where}.`, ExitCode.failure, 'Ports below 1024 need privileges; pick a higher --port.', 'address_denied');
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new CliError(`Cannot listen on ${where}: "${host}" is not an address of this machine.`, ExitCode.usage, 'Use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface).', 'usage');
    default:
      return error;
  }
}

/** Resolves on Ctrl-C or SIGTERM: a server's cue to close and exit 0. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
