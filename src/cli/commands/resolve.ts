import type { Command } from 'commander';
import type { ResolvedChannel } from '../../core/schemas/workspace.js';
import type { CliApp } from '../app.js';
import { expandStdinArgs } from '../arguments.js';
import { jsonErrorLine } from '../../core/client-errors.js';
import { withExamples } from '../help.js';
import { printJson, printTable, type Column } from '../output.js';
import { clip, clipEchoes } from '../../core/echo-text.js';

/** The title: ours, or the hosted service's `channel_name` (its body has no `title`). */
const titleOf = (row: Partial<ResolvedChannel>) => row.title ?? row.channel_name ?? null;

/**
 * One order for the table and the piped rows: `cut -f1` is the channel id in both. The hosted
 * service's body has no `known`: a name it gave means a channel it knows; without either, blank.
 */
export const resolveColumns: Column<ResolvedChannel>[] = [
  { header: 'Channel', value: (row) => row.channel_id },
  { header: 'Handle', value: (row) => row.handle },
  { header: 'Title', value: (row) => titleOf(row) },
  { header: 'Input', value: (row) => row.input },
  // A well-formed id no channel has comes back unchanged: say so rather than leave a blank title.
  { header: 'Known', value: (row) => (typeof row.known === 'boolean' ? (row.known ? 'yes' : 'no') : titleOf(row) !== null ? 'yes' : '') },
];

export function registerResolve(program: Command, app: CliApp): void {
  withExamples(
    program
      .command('resolve <input...>')
      .description('Resolve @handles and channel URLs to canonical UC… ids (- reads one per line from stdin)')
      .addHelpText('after', '\nWith --json, one input prints its API body; several (or -) print one JSON array of bodies.\nA well-formed UC… id no channel has comes back unchanged with known: false (Known: no) and no title.'),
    ['tubekit resolve @honestrunning', 'tubekit resolve https://www.youtube.com/@goldenpiano --json', 'printf "@honestrunning\\n@goldenpiano\\n" | tubekit resolve -', 'tubekit resolve @honestrunning @goldenpiano --jq \'.[].channel_id\''],
  ).action(async (inputs: string[]) => {
    const values = await expandStdinArgs(app, inputs);
    const results: ResolvedChannel[] = [];
    let firstFailure: unknown;
    // One bad input does not hide the others' answers; each failure is reported on stderr.
    for (const input of values) {
      try {
        results.push(await app.call('channels.resolve', { input }));
      } catch (error) {
        firstFailure ??= error;
        if (app.json) app.io.error(jsonErrorLine(error, { input: clip(input) }));
        // An error line like any other, naming the input it is about (quoted: it may be empty).
        else app.io.error(app.io.red(`error: "${clip(input)}": ${clipEchoes((error as Error).message)}`));
      }
    }
    // One JSON value whatever the count: the body for a single named input, else an array.
    const single = inputs.length === 1 && inputs[0] !== '-';
    if (app.json) {
      if (!single) printJson(app.io, results);
      else if (results[0]) printJson(app.io, results[0]);
    } else await printTable(app.io, results, resolveColumns);
    // What to do about it, once, as every other command prints it after its error.
    const hint = (firstFailure as { hint?: unknown } | undefined)?.hint;
    if (!app.json && typeof hint === 'string' && hint) app.io.error(app.io.dim(clipEchoes(hint)));
    if (firstFailure) throw Object.assign(firstFailure as Error, { alreadyReported: true });
  });
}
