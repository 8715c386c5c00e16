import type { Command } from 'commander';
import { exitCodeDescriptions } from '../core/exit-codes.js';
import { environmentHelp } from './environment.js';

/** Help leads with examples: they are printed before the usage line. */
export function withExamples(command: Command, examples: string[]): Command {
  const text = ['Examples:', ...examples.map((example) => `  $ ${example}`), ''].join('\n');
  return command.addHelpText('before', text);
}

export const exitCodeHelp = ['Exit codes:', ...exitCodeDescriptions.map(([code, text]) => `  ${String(code).padStart(2)}  ${text}`)].join('\n');

export const programFooter = `\n${exitCodeHelp}\n\n${environmentHelp}\n\nDocs: README.md — tubekit <command> --help shows examples for each command.`;
