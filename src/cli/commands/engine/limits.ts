/** `engine limits`: the plan table with this engine's overrides. */
import type { Command } from 'commander';
import type { CliApp } from '../../app.js';
import { usageError } from '../../../core/client-errors.js';
import { examples } from '../../help.js';
import { printJson, printTable } from '../../output.js';
import { withLocalEngine } from './local-engine.js';

export function registerLimits(engine: Command, app: CliApp): void {
  const limits = engine.command('limits').description("The engine's plan table (documented defaults plus overrides)")
    .addHelpText('before', examples(['tubekit engine limits list', 'tubekit engine limits set starter folders 1', 'tubekit engine limits reset']));
  limits
    .command('list')
    .description('Show every limit per plan')
    .addHelpText('before', examples(['tubekit engine limits list', 'tubekit engine limits list --json | jq .starter']))
    .action(async () => {
      const { PLANS } = await import('../../../engine/limits/plans.js');
      const table = await withLocalEngine(app, (local) => Object.fromEntries(PLANS.map((plan) => [plan, local.planLimits(plan)])));
      if (app.json) printJson(app.io, table);
      else {
        const names = Object.keys(table.professional);
        await printTable(
          app.io,
          names,
          [{ header: 'Limit', value: (name: string) => name }, ...PLANS.map((plan) => ({
            header: plan,
            value: (name: string) => {
              const value = (table[plan] as unknown as Record<string, unknown>)[name];
              return value === null ? 'unlimited' : String(value);
            },
          }))],
        );
      }
    });
  limits
    .command('set <plan> <name> <value>')
    .description('Override one limit for one plan (a number, "unlimited", or true/false)')
    .addHelpText('before', examples(['tubekit engine limits set starter folders 1', 'tubekit engine limits set ultimate folders unlimited']))
    .action(async (plan: string, name: string, value: string) => {
      const { isPlan, limitNames, parseLimitValue } = await import('../../../engine/limits/plans.js');
      if (!isPlan(plan)) throw usageError(`Unknown plan "${plan}".`);
      if (!(limitNames as string[]).includes(name)) throw usageError(`Unknown limit "${name}"; see \`tubekit engine limits list\`.`);
      let parsed: unknown;
      try {
        parsed = parseLimitValue(name as never, value);
      } catch (error) {
        throw usageError((error as Error).message);
      }
      await withLocalEngine(app, (local) => {
        const overrides = local.settings.get<Record<string, Record<string, unknown>>>('limits') ?? {};
        overrides[plan] = { ...overrides[plan], [name]: parsed };
        return local.settings.set('limits', overrides);
      });
      app.io.note(`${plan}.${name} = ${parsed === null ? 'unlimited' : String(parsed)}`);
    });
  limits
    .command('reset')
    .description('Remove every override')
    .addHelpText('before', examples(['tubekit engine limits reset']))
    .action(async () => {
      await withLocalEngine(app, (local) => local.settings.delete('limits'));
      app.io.note('Limits reset to the documented defaults.');
    });
}
