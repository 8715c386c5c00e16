import type { Command } from 'commander';
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
