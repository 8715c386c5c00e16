/** `engine keys`: users with a plan and their API keys (stored hashed; a key is shown once). */
import type { Command } from 'commander';
import type { CliApp } from '../../app.js';
import { usageError } from '../../../core/client-errors.js';
import { examples } from '../../help.js';
import { printJson, printTable } from '../../output.js';
import { withLocalEngine } from './local-engine.js';

export function registerKeys(engine: Command, app: CliApp): void {
  const keys = engine
    .command('keys')
    .description('API keys of the embedded engine')
    .addHelpText('before', examples(['KEY=$(tubekit engine keys create --plan starter)', 'tubekit engine keys list', 'tubekit engine keys revoke "$KEY"']));
  keys
    .command('create')
    .description('Create a user with a plan and print its new key (shown once)')
    .addHelpText('before', examples(['tubekit engine keys create --plan starter', 'tubekit engine keys create --plan professional --scope generations --json', 'TUBEKIT_API_KEY=$(tubekit engine keys create --plan none) tubekit folders list   # exits 5']))
    .option('--plan <plan>', 'starter, professional, ultimate or none', 'ultimate')
    .option('--scope <scope...>', 'scopes to grant (generations)')
    .action(async (options: { plan: string; scope?: string[] }) => {
      const { isPlan, PLANS } = await import('../../../engine/limits/plans.js');
      const { SCOPES } = await import('../../../engine/identity/identity.js');
      if (!isPlan(options.plan)) throw usageError(`--plan must be one of ${PLANS.join(', ')}, not "${options.plan}".`);
      const scopes = options.scope ?? [];
      const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
      if (unknown.length > 0) throw usageError(`Unknown scope ${unknown.join(', ')}; scopes: ${SCOPES.join(', ')}.`);
      const created = await withLocalEngine(app, (local) =>
        local.identity.createUserWithKey(options.plan as never, scopes as never),
      );
      if (app.json) printJson(app.io, created);
      else {
        app.io.out(created.key);
        app.io.note(`Key for user ${created.user_id} (${created.plan}${created.scopes.length ? `, scopes: ${created.scopes.join(',')}` : ''}). It is shown only now.`);
      }
    });
  keys
    .command('list')
    .description('List keys (prefixes only; keys are stored hashed)')
    .addHelpText('before', examples(['tubekit engine keys list', 'tubekit engine keys list --json | jq \'.keys[] | select(.revoked | not)\'']))
    .action(async () => {
      const list = await withLocalEngine(app, async (local) => {
        await local.defaultKey();
        return local.identity.listKeys();
      });
      if (app.json) printJson(app.io, { keys: list });
      else
        await printTable(app.io, list, [
          { header: 'Prefix', value: (key) => key.prefix },
          { header: 'User', value: (key) => key.user_id },
          { header: 'Plan', value: (key) => key.plan },
          { header: 'Scopes', value: (key) => key.scopes.join(',') },
          { header: 'Created', value: (key) => key.created_at },
          { header: 'State', value: (key) => (key.revoked ? 'revoked' : key.default ? 'active (default)' : 'active') },
        ]);
    });
  keys
    .command('revoke <key>')
    .description('Revoke a key, given whole or by any unambiguous start of the prefix `keys list` shows')
    .addHelpText('before', examples(['tubekit engine keys revoke "$KEY"', 'tubekit engine keys list | cut -f1      # the prefixes it also takes']))
    .action(async (key: string) => {
      if (key.trim() === '') throw usageError('Give the key to revoke: the whole key, or its prefix from `tubekit engine keys list`.');
      const revoked = await withLocalEngine(app, (local) => local.identity.revokeKey(key.trim()));
      if (app.json) printJson(app.io, { success: true, revoked: revoked.prefix });
      else app.io.note(`Revoked ${revoked.prefix}…`);
    });
}
