import type { Command } from 'commander';
import type { CliApp } from '../app.js';
import { withExamples } from '../help.js';
import { printRecord } from '../output.js';

export function registerHealth(program: Command, app: CliApp): void {
  withExamples(program.command('health').description('Check the service and your job counts'), [
    'tubekit health',
    'tubekit health --json | jq .active_jobs',
  ]).action(async () => {
    const body = await app.call('health', {});
    await app.render(body, (b) => printRecord(app.io, Object.entries(b)));
  });
}
