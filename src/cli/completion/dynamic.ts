/**
 * What shell completion offers for a value, beyond the command tree:
 *  - values from the service (folder ids, voice ids, deletable voice ids): commands mark the options
 *    and arguments that take them (`completesWith`); the shell scripts then ask
 *    `tubekit __complete <kind>` (with the --data-dir, --profile, … typed on the line), which
 *    answers from the embedded engine directly (cheap) or, in remote mode, from a list cached for a
 *    few minutes, so a Tab never waits on the network for long;
 *  - fixed values: an option's or argument's commander choices, or a list given with
 *    `completesWithValues` where choices cannot be used (the value is normalised: `720` → `720p`).
 */
import type { Command, Option } from 'commander';

export const COMPLETION_KINDS = ['folder', 'voice', 'deletable-voice'] as const;
export type CompletionKind = (typeof COMPLETION_KINDS)[number];

const optionKinds = new WeakMap<Option, CompletionKind>();
const argumentKinds = new WeakMap<Command, CompletionKind>();
const optionValueLists = new WeakMap<Option, readonly string[]>();
const argumentValueLists = new WeakMap<Command, readonly string[]>();

function optionOf(command: Command, flag: string): Option {
  const option = command.options.find((candidate) => candidate.long === flag);
  if (!option) throw new Error(`completion: ${command.name()} has no option ${flag}`);
  return option;
}

/** Marks an option (by its long flag) or, without one, the command's first argument. */
export function completesWith(command: Command, kind: CompletionKind, flag?: string): Command {
  if (flag === undefined) argumentKinds.set(command, kind);
  else optionKinds.set(optionOf(command, flag), kind);
  return command;
}

/** Fixed values of an option (by its long flag) or, without one, of the command's first argument. */
export function completesWithValues(command: Command, values: readonly string[], flag?: string): Command {
  if (flag === undefined) argumentValueLists.set(command, values);
  else optionValueLists.set(optionOf(command, flag), values);
  return command;
}

export const optionKind = (option: Option): CompletionKind | undefined => optionKinds.get(option);
export const argumentKind = (command: Command): CompletionKind | undefined => argumentKinds.get(command);
export const optionValues = (option: Option): readonly string[] | undefined => optionValueLists.get(option) ?? option.argChoices;
export const argumentValues = (command: Command): readonly string[] | undefined =>
  argumentValueLists.get(command) ?? command.registeredArguments[0]?.argChoices;
