import { Help, type Command } from 'commander';
import { exitCodeDescriptions } from '../core/exit-codes.js';
import { environmentHelp } from './environment.js';

/** The examples block of a help page; `.addHelpText('before', examples([...]))` puts it first. */
export function examples(lines: string[]): string {
  return ['Examples:', ...lines.map((example) => `  $ ${example}`), ''].join('\n');
}

/** Help leads with examples: they are printed before the usage line. */
export function withExamples(command: Command, lines: string[]): Command {
  return command.addHelpText('before', examples(lines));
}

export const exitCodeHelp = ['Exit codes:', ...exitCodeDescriptions.map(([code, text]) => `  ${String(code).padStart(2)}  ${text}`)].join('\n');

export const programFooter = `\n${exitCodeHelp}\n\n${environmentHelp}\n\nDocs: README.md — tubekit <command> --help shows examples for each command.`;

/**
 * Global options in a subcommand's help: their names only, after the command's own options,
 * instead of the whole block again (`tubekit --help` describes them).
 */
export function inheritedOptionsHelp(root: Command, width = 100): string {
  const flags = root.options
    .filter((option) => !option.hidden && option.long !== '--version')
    .map((option) => (option.short ? `${option.short}/${option.long}` : option.long!) + (option.required ? ` ${option.flags.split(' ').pop()}` : ''));
  const lines: string[] = [];
  let line = ' ';
  for (const flag of flags) {
    if (line.length + flag.length + 2 > width) {
      lines.push(line);
      line = ' ';
    }
    line += ` ${flag}`;
  }
  lines.push(line);
  return ['Inherited options (see tubekit --help):', ...lines].join('\n');
}

/** Help configuration for the program and, inherited, every subcommand. */
export function helpConfiguration(): Partial<Help> {
  return {
    showGlobalOptions: false,
    formatHelp(this: Help, command: Command, helper: Help): string {
      const text = Help.prototype.formatHelp.call(this, command, helper);
      let root = command;
      while (root.parent) root = root.parent;
      return root === command ? text : `${text.trimEnd()}\n\n${inheritedOptionsHelp(root, helper.helpWidth ?? 100)}\n`;
    },
  };
}
