/**
 * rootDispatch must read argv as commander's own root parse does: when it names a command, only
 * that command's module is loaded, so commander had better dispatch to that very command.
 */
import { PassThrough } from 'node:stream';
import { CommanderError, type Command } from 'commander';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { IO } from '../../../src/cli/io.js';
import { buildWholeProgram } from '../../../src/cli/program.js';
import { rootDispatch } from '../../../src/cli/root-dispatch.js';

/**
 * How commander's root parse of args ends: with the operand it dispatches on, or before any
 * dispatch, printing the version or failing on a missing value (neither depends on the commands).
 */
function commanderDispatch(program: Command, args: string[]): ReturnType<typeof rootDispatch> | 'missing value' {
  try {
    return { operand: program.parseOptions(args).operands[0] };
  } catch (error) {
    if (error instanceof CommanderError && error.code === 'commander.version') return 'version';
    if (error instanceof CommanderError && error.code === 'commander.optionMissingArgument') return 'missing value';
    throw error;
  }
}

const TOKENS = [
  'folders', 'folderz', 'help', 'list', 'completion', '--', '-', '-1',
  '--json', '--json=1', '--jq', '--jq=.x', '.x', '--base-url', '--base-url=http://x', 'http://x', '--profile', '--request-timeout', '5',
  '--no-input', '--no-color', '--local', '-q', '-v', '-qv', '-vq', '-qx', '-V', '-qV', '--version', '--version=1', '-h', '--help', '--bogus', '-x',
];

describe('rootDispatch', () => {
  let program: Command;
  beforeAll(async () => {
    const io = new IO({ stdout: new PassThrough(), stderr: new PassThrough(), stdin: new PassThrough(), env: {} });
    ({ program } = await buildWholeProgram(io));
  });

  it.each([
    [['folders', 'list'], { operand: 'folders' }],
    [['--base-url', 'http://x', 'folders', '--help'], { operand: 'folders' }],
    [['--jq=.x', '-qv', 'folders'], { operand: 'folders' }],
    [['--jq', 'folders', 'list'], { operand: 'list' }],
    [['--', 'folders'], { operand: 'folders' }],
    [['--help', 'folders'], { operand: undefined }],
    [['--bogus', 'folders'], { operand: undefined }],
    [['-qV', 'folders'], 'version'],
    [['-Vq'], 'version'],
    [[], { operand: undefined }],
  ])('reads %j', (args, expected) => {
    expect(rootDispatch(program, args)).toEqual(expected);
    expect(commanderDispatch(program, args)).toEqual(expected);
  });

  it('agrees with commander on any mix of root options, values and operands', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { maxLength: 6 }), (args) => {
        const ours = rootDispatch(program, args);
        const commanders = commanderDispatch(program, args);
        if (ours === 'version') expect(commanders, args.join(' ')).toBe('version');
        // Commander also reads the version flag after the command, and a value missing after it.
        if (typeof commanders === 'object') expect(ours, args.join(' ')).toEqual(commanders);
      }),
      { numRuns: 2000 },
    );
  });
});
