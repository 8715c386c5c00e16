import type { Command } from 'commander';
import type { CliApp } from '../app.js';
import { withExamples } from '../help.js';
import { printRecord } from '../output.js';

export function registerHealth(program: Command, app: CliApp): void {
  withExamples(program.command('health').description('Check the service (healthy or degraded, and why) and your job counts'), [
    'tubekit health',
    'tubekit health --json | jq .active_jobs',
    'tubekit health --json | jq -r \'.problems[] | "\\(.check): \\(.message)"\'',
  ]).action(async () => {
    const body = await app.call('health', {});
    await app.render(body, ({ problems, ...rest }) =>
      // One line per problem, after the figures; a server answering without a key sends only its status.
      printRecord(app.io, [...Object.entries(rest), ...(problems ?? []).map((problem): [string, unknown] => [`problem (${problem.check})`, problem.message])]),
    );
  });
}
