/**
 * Help pages and the README against the real command tree: every command's help leads with
 * examples, and every `tubekit …` line in them or in the README names commands and flags that exist.
 */
import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { IO } from '../../src/cli/io.js';
import { buildWholeProgram } from '../../src/cli/program.js';

async function programWithOutput(): Promise<{ program: Command; written: () => string; reset: () => void }> {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const io = new IO({ stdout, stderr: new PassThrough(), stdin: new PassThrough(), env: {} });
  const { program } = await buildWholeProgram(io);
  return {
    program,
    written: () => text,
    reset: () => {
      text = '';
    },
  };
}

function allCommands(command: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  const own = { path, command };
  return [own, ...command.commands.filter((child) => child.name() !== 'help').flatMap((child) => allCommands(child, [...path, child.name()]))];
}

/** Shell words, with quotes kept together; stops at a comment. */
function words(line: string): string[] {
  return (line.replace(/\s#\s.*$/, '').match(/"[^"]*"|'[^']*'|\$\([^)]*\)|[^\s]+/g) ?? []).map((word) => word.replace(/^["']|["']$/g, ''));
}

const PLACEHOLDER = '<…>';
const SEPARATORS = new Set(['|', '||', '&&', ';', '>', '<', '2>', ')', 'then', 'do']);

/** What is wrong with one `tubekit …` invocation (its words after `tubekit`), if anything. */
function checkInvocation(program: Command, args: string[]): string | undefined {
  let command = program;
  const known = (flag: string) => {
    for (let at: Command | null = command; at; at = at.parent) {
      const option = at.options.find((candidate) => candidate.long === flag || candidate.short === flag);
      if (option) return option;
    }
    return flag === '--help' || flag === '-h' ? { required: false, optional: false } : undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (SEPARATORS.has(word)) break;
    if (word.startsWith('-') && word !== '-') {
      const flag = word.split('=')[0]!;
      const option = known(flag);
      if (!option) return `unknown option ${flag} for "${command.name()}"`;
      if ((option.required || option.optional) && !word.includes('=')) i++;
      continue;
    }
    const sub = command.commands.find((child) => child.name() === word || child.aliases().includes(word));
    if (sub) command = sub;
    else if (word === PLACEHOLDER) return undefined; // `tubekit <command> --help`: nothing more to check
    else if (command.commands.length > 0 && command.registeredArguments.length === 0) return `unknown command "${word}" under "${command.name()}"`;
  }
  if (command.commands.length > 0 && !command.registeredArguments.length) return `"${command.name()}" needs a subcommand`;
  return undefined;
}

/** Every `tubekit …` invocation in a line (after `$(`, pipes, `npx`, env assignments). */
function invocations(line: string): string[][] {
  const found: string[][] = [];
  const all = words(line.replace(/\$\(/g, ' ').replace(/\)/g, ' ) '));
  all.forEach((word, index) => {
    const before = all[index - 1];
    const atCommand = before === undefined || before === 'npx' || SEPARATORS.has(before) || /^[A-Z_]+=/.test(before);
    if (word === 'tubekit' && atCommand) found.push(all.slice(index + 1));
  });
  return found;
}

describe('help and README', () => {
  it('leads every command\'s help with examples', async () => {
    const { program, written, reset } = await programWithOutput();
    for (const { path, command } of allCommands(program)) {
      reset();
      command.outputHelp();
      expect(written(), `tubekit ${path.join(' ')} --help`).toMatch(/^Examples:\n {2}\$ .*\btubekit\b/);
    }
  });

  it('lists a subcommand\'s own options first and the global ones by name in a short inherited section', async () => {
    const { program, written, reset } = await programWithOutput();
    const globals = program.options.filter((option) => !option.hidden && option.long !== '--version').map((option) => option.long!);
    for (const { path, command } of allCommands(program).filter(({ path }) => path.length > 0)) {
      reset();
      command.outputHelp();
      const help = written();
      const [own, inherited] = help.split('Inherited options (see tubekit --help):');
      expect(inherited, path.join(' ')).toBeDefined();
      for (const flag of globals) {
        expect(inherited, `${path.join(' ')} ${flag}`).toMatch(new RegExp(`(^|\\s|/)${flag}(\\s|$)`));
        expect(own, `${path.join(' ')} ${flag}`).not.toMatch(new RegExp(`^\\s+(-\\w, )?${flag}\\b`, 'm'));
      }
      expect(inherited!.trim().split('\n\n')[0]!.split('\n').length, path.join(' ')).toBeLessThanOrEqual(4);
      expect(help).not.toContain('Global Options:');
    }
  });

  it('uses only real commands and flags in the examples', async () => {
    const { program, written, reset } = await programWithOutput();
    for (const { path, command } of allCommands(program)) {
      reset();
      command.outputHelp();
      const lines = written().split('\n\n')[0]!.split('\n').slice(1);
      for (const line of lines) {
        for (const args of invocations(line)) expect(checkInvocation(program, args), `${path.join(' ')}: ${line}`).toBeUndefined();
      }
    }
  });

  it('uses only real commands and flags in the README', async () => {
    const { program } = await programWithOutput();
    const readme = fs.readFileSync('README.md', 'utf8');
    const blocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!.replace(/\\\n\s*/g, ' '));
    const inline = [...readme.matchAll(/`((?:npx )?tubekit [^`]+)`/g)].map((match) => match[1]!);
    const lines = [...blocks.flatMap((block) => block.split('\n')), ...inline].filter((line) => /\btubekit /.test(line));
    expect(lines.length).toBeGreaterThan(30);
    for (const line of lines) {
      for (const args of invocations(line.replace(/<[^>]+>/g, PLACEHOLDER))) expect(checkInvocation(program, args), line).toBeUndefined();
    }
  });
});
