/**
 * `tubekit terminated` checks its flags against the limits the core exports (issue 23: it kept its
 * own copies), so the CLI and the service can never disagree on a page, a page size or a sort.
 */
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildWholeProgram } from '../../../src/cli/program.js';
import { TERMINATED_MAX_PAGE, TERMINATED_MAX_PER_PAGE, TERMINATED_SORTS } from '../../../src/core/schemas/research.js';
import { memoryIO } from '../../support/memory-io.js';

describe('tubekit terminated flags', () => {
  it('offers exactly the sorts of the core, and states its page limits', async () => {
    const { program } = await buildWholeProgram(memoryIO().io);
    const terminated = program.commands.find((command) => command.name() === 'terminated') as Command;
    const option = (flag: string) => terminated.options.find((candidate) => candidate.long === flag) as Option;
    expect(option('--sort').argChoices).toEqual(TERMINATED_SORTS);
    expect(option('--page').description).toBe(`page, 1 to ${TERMINATED_MAX_PAGE}`);
    expect(option('--per-page').description).toMatch(new RegExp(`^channels per page, 1 to ${TERMINATED_MAX_PER_PAGE} \\(default 20; ${TERMINATED_MAX_PER_PAGE} with --all\\)$`));
    expect(terminated.commands.map((command) => command.name())).toEqual(['show']);
  });
});
