/**
 * Values completed from the service, not the command tree: folder ids and voice ids. Commands mark
 * the options and arguments that take them (`completesWith`); the shell scripts then ask
 * `tubekit __complete <kind>`, which answers from the embedded engine directly (cheap) or, in remote
 * mode, from a list cached for a few minutes, so a Tab never waits on the network for long.
 */
import type { Command, Option } from 'commander';

export const COMPLETION_KINDS = ['folder', 'voice'] as const;
export type CompletionKind = (typeof COMPLETION_KINDS)[number];

const optionKinds = new WeakMap<Option, CompletionKind>();
const argumentKinds = new WeakMap<Command, CompletionKind>();

/** Marks an option (by its long flag) or, without one, the command's first argument. */
export function completesWith(command: Command, kind: CompletionKind, flag?: string): Command {
  if (flag === undefined) {
    argumentKinds.set(command, kind);
    return command;
  }
  const option = command.options.find((candidate) => candidate.long === flag);
  if (!option) throw new Error(`completesWith: ${command.name()} has no option ${flag}`);
  optionKinds.set(option, kind);
  return command;
}

export const optionKind = (option: Option): CompletionKind | undefined => optionKinds.get(option);
export const argumentKind = (command: Command): CompletionKind | undefined => argumentKinds.get(command);
