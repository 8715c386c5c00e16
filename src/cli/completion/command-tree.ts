import type { Command, Option } from 'commander';
import { argumentKind, argumentValues, optionKind, optionValues, type CompletionKind } from './dynamic.js';

export interface TreeOption {
  flag: string;
  description: string;
  /** Completed from the service (folder or voice ids). */
  kind: CompletionKind | undefined;
  /** The fixed values it takes. */
  values: readonly string[] | undefined;
}

export interface TreeNode {
  /** Dot-joined command names from the root ('' for the program). */
  path: string;
  name: string;
  description: string;
  options: TreeOption[];
  /** The kind of value the first argument takes, when it is completed from the service. */
  argumentKind?: CompletionKind;
  /** The fixed values the first argument takes. */
  argumentValues?: readonly string[];
  children: TreeNode[];
}

const longFlag = (option: Option): string | undefined => option.long ?? undefined;

/** The program's commands and options as plain data, for the completion generators. */
export function commandTree(command: Command, parentPath = ''): TreeNode {
  const path = parentPath;
  const options = command.options
    .filter((option) => !option.hidden)
    .map((option) => ({ flag: longFlag(option), description: option.description, kind: optionKind(option), values: optionValues(option) }))
    .filter((option): option is TreeOption => Boolean(option.flag));
  const children = command.commands
    .filter((child) => !(child as unknown as { _hidden?: boolean })._hidden)
    .map((child) => commandTree(child, path ? `${path}.${child.name()}` : child.name()));
  return { path, name: command.name(), description: command.description(), options, argumentKind: argumentKind(command), argumentValues: argumentValues(command), children };
}

export function walk(node: TreeNode, visit: (node: TreeNode) => void): void {
  visit(node);
  for (const child of node.children) walk(child, visit);
}

/** One line of a description, safe inside single quotes of any of the three shells. */
export const plain = (text: string): string => text.split('\n')[0]!.replace(/['\\]/g, '').replace(/:/g, ' -');
