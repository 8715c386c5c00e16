import type { Command } from 'commander';
import type { ResolvedChannel } from '../../core/schemas/workspace.js';
import type { CliApp } from '../app.js';
import { expandStdinArgs } from '../arguments.js';
import { jsonErrorLine } from '../errors.js';
import { withExamples } from '../help.js';
import { printJson, printTable } from '../output.js';

export function registerResolve(program: Command, app: CliApp): void {
  withExamples(
    program
      .command('resolve <input...>')
      .description('Resolve @handles and channel URLs to canonical UC… ids (- reads one per line from stdin)'),
    ['tubekit resolve @honestrunning', 'tubekit resolve https://www.youtube.com/@goldenpiano --json', 'printf "@honestrunning\\n@goldenpiano\\n" | tubekit resolve -'],
  ).action(async (inputs: string[]) => {
    const values = await expandStdinArgs(app, inputs);
    const results: ResolvedChannel[] = [];
    let firstFailure: unknown;
    // Each input gets its own line; one bad input does not hide the others' answers.
    for (const input of values) {
      try {
        const body = await app.call('channels.resolve', { input });
        if (app.json) printJson(app.io, body);
        else if (!app.io.stdoutIsTerminal) app.io.out([body.channel_id, body.handle ?? '', body.title, input].join('\t'));
        results.push(body);
      } catch (error) {
        firstFailure ??= error;
        app.io.error(app.json ? jsonErrorLine(error, { input }) : `${input}: ${(error as Error).message}`);
      }
    }
    if (!app.json && app.io.stdoutIsTerminal) {
      await printTable(app.io, results, [
        { header: 'Input', value: (row) => row.input },
        { header: 'Channel', value: (row) => row.channel_id },
        { header: 'Handle', value: (row) => row.handle },
        { header: 'Title', value: (row) => row.title },
      ]);
    }
    if (firstFailure) throw Object.assign(firstFailure as Error, { alreadyReported: true });
  });
}
