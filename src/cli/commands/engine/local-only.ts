import type { Command } from 'commander';
import type { CliApp } from '../../app.js';
import { usageError } from '../../../core/client-errors.js';

/**
 * `engine …` and `serve` act on the local data dir whatever the remote settings; a --base-url or
 * --remote given to them would be silently ignored, so it is refused instead. (A base URL from the
 * environment or the profile is left alone: it is there for the other commands.)
 */
export function refuseRemoteFlags(command: Command, app: CliApp, what: string): Command {
  return command.hook('preAction', () => {
    const flags = app.flags;
    const given = flags.remote ? '--remote' : flags.baseUrl !== undefined ? '--base-url' : undefined;
    if (given) {
      throw usageError(`${given} does not apply to ${what}: it administers the embedded engine on the local data dir.`, 'Drop the flag; choose the data dir with --data-dir. For the remote service, use the other commands.');
    }
  });
}
