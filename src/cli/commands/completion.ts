import type { Command } from 'commander';
import type { CliApp } from '../app.js';
import { commandTree } from '../completion/command-tree.js';
import { completesWithValues } from '../completion/dynamic.js';
import { completionScript, SHELLS, type Shell } from '../completion/scripts.js';
import { usageError } from '../../core/client-errors.js';
import { withExamples } from '../help.js';

export function registerCompletion(program: Command, app: CliApp): void {
  const completion = withExamples(program.command('completion <shell>').description('Print a completion script for bash, zsh or fish'), [
    'tubekit completion bash > ~/.local/share/bash-completion/completions/tubekit',
    'tubekit completion zsh > "${fpath[1]}/_tubekit"',
    'tubekit completion fish > ~/.config/fish/completions/tubekit.fish',
  ]);
  completesWithValues(completion, SHELLS).action((shell: string) => {
    if (!(SHELLS as readonly string[]).includes(shell)) throw usageError(`Unknown shell "${shell}"; choose ${SHELLS.join(', ')}.`);
    app.io.streams.stdout.write(completionScript(shell as Shell, commandTree(program)));
  });
}
