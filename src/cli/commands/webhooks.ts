import type { Command } from 'commander';
import { EVENT_TYPES, type EventType, type WebhookEndpoint } from '../../core/schemas/events.js';
import type { RouteOutput } from '../../core/routes.js';
import type { CliApp } from '../app.js';
import { parseId, parseWholeNumber } from '../arguments.js';
import { confirmOrAbort } from '../confirm.js';
import { usageError } from '../../core/client-errors.js';
import { examples, withExamples } from '../help.js';
import { printJson, printTable, type Column } from '../output.js';

const endpointColumns: Column<WebhookEndpoint>[] = [
  { header: 'ID', value: (endpoint) => endpoint.id },
  { header: 'URL', value: (endpoint) => endpoint.url },
  { header: 'Events', value: (endpoint) => endpoint.events.join(',') },
  { header: 'Alert', value: (endpoint) => endpoint.alert_id ?? '' },
  { header: 'Enabled', value: (endpoint) => (endpoint.enabled ? 'yes' : `no: ${endpoint.disabled_reason ?? ''}`) },
  { header: 'Pending', value: (endpoint) => endpoint.pending_deliveries },
];

type Delivery = RouteOutput<'webhooks.deliveries'>['deliveries'][number];

const deliveryColumns: Column<Delivery>[] = [
  { header: 'ID', value: (delivery) => delivery.id },
  { header: 'Endpoint', value: (delivery) => delivery.endpoint_id },
  { header: 'Event', value: (delivery) => delivery.event_id },
  { header: 'Type', value: (delivery) => delivery.event_type },
  { header: 'State', value: (delivery) => delivery.state },
  { header: 'Attempts', value: (delivery) => delivery.attempts.length },
  { header: 'Last status', value: (delivery) => { const last = delivery.attempts.at(-1); return last ? (last.status ?? last.error ?? '') : ''; } },
  { header: 'Last ms', value: (delivery) => delivery.attempts.at(-1)?.duration_ms ?? '' },
  { header: 'Next attempt', value: (delivery) => delivery.next_attempt_at ?? '' },
];

/** `alert.triggered,channel.new_upload` as event types; a misspelt one is a usage error naming them. */
export function parseEventTypes(text: string, flag = '--events'): EventType[] {
  const names = text.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(EVENT_TYPES as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw usageError(`${flag} ${names.length === 0 ? 'needs at least one event type' : `names no event type ${unknown.join(', ')}`}.`, `Event types: ${EVENT_TYPES.join(', ')}.`);
  }
  return names as EventType[];
}

/** The secret goes to stdout alone (so `SECRET=$(tubekit webhooks create …)` keeps it), the rest to stderr. */
function showSecret(app: CliApp, body: { endpoint: WebhookEndpoint; secret: string }, what: string): void {
  if (app.json) {
    printJson(app.io, body);
    return;
  }
  app.io.out(body.secret);
  app.io.note(`${what} ${body.endpoint.id} (${body.endpoint.url}). Its signing secret is shown once, above: keep it where your receiver verifies signatures.`);
}

export function registerWebhooks(program: Command, app: CliApp): void {
  const webhooks = withExamples(program.command('webhooks').description('Signed webhooks: your endpoints, and the deliveries of events to them (a tubekit extension)'), [
    'tubekit webhooks create https://example.com/hooks/tubekit --events alert.triggered,channel.new_upload',
    'tubekit webhooks list',
    'tubekit webhooks deliveries --failed',
  ]);

  webhooks
    .command('create <url>')
    .description(`Add an endpoint (https only) for events: ${EVENT_TYPES.join(', ')}; prints its signing secret once`)
    .addHelpText('before', examples([
      'tubekit webhooks create https://example.com/hooks/tubekit --events alert.triggered',
      'SECRET=$(tubekit webhooks create https://example.com/hooks --events alert.triggered --alert 3)',
    ]))
    .requiredOption('--events <list>', 'comma-separated event types')
    .option('--alert <id>', 'only this alert\'s alert.triggered events')
    .action(async (url: string, options: { events: string; alert?: string }) => {
      const body = await app.call('webhooks.create', { url, events: parseEventTypes(options.events), alert_id: options.alert === undefined ? undefined : parseId(options.alert, '--alert') });
      showSecret(app, body, 'Created webhook endpoint');
    });

  webhooks
    .command('list')
    .description('Your endpoints: events, whether enabled (and why not), deliveries waiting')
    .addHelpText('before', examples(['tubekit webhooks list', 'tubekit webhooks list --json | jq \'.endpoints[] | select(.enabled | not)\'']))
    .action(async () => {
      const body = await app.call('webhooks.list', {});
      await app.render(body, (b) => printTable(app.io, b.endpoints, endpointColumns));
    });

  webhooks
    .command('update <id>')
    .description('Change an endpoint\'s URL, events or alert; enable it again (its waiting deliveries are sent) or disable it')
    .addHelpText('before', examples(['tubekit webhooks update 1 --enable', 'tubekit webhooks update 1 --events channel.new_upload --all-alerts']))
    .option('--url <url>', 'new URL')
    .option('--events <list>', 'comma-separated event types')
    .option('--alert <id>', 'only this alert\'s alert.triggered events')
    .option('--all-alerts', 'alert.triggered events of every alert')
    .option('--enable', 'deliver to it again')
    .option('--disable', 'stop delivering to it')
    .action(async (id: string, options: { url?: string; events?: string; alert?: string; allAlerts?: boolean; enable?: boolean; disable?: boolean }) => {
      const endpointId = parseId(id, 'Endpoint id');
      if (options.enable && options.disable) throw usageError('--enable and --disable contradict each other: pick one.');
      if (options.alert !== undefined && options.allAlerts) throw usageError('--alert and --all-alerts contradict each other: pick one.');
      const input = {
        id: endpointId,
        url: options.url,
        events: options.events === undefined ? undefined : parseEventTypes(options.events),
        alert_id: options.allAlerts ? null : options.alert === undefined ? undefined : parseId(options.alert, '--alert'),
        enabled: options.enable ? true : options.disable ? false : undefined,
      };
      if (Object.values(input).filter((value) => value !== undefined).length === 1) throw usageError('Nothing to change.', 'Give --url, --events, --alert, --all-alerts, --enable or --disable.');
      const body = await app.call('webhooks.update', input);
      await app.render(body, (b) => printTable(app.io, [b.endpoint], endpointColumns));
    });

  webhooks
    .command('delete <id>')
    .description('Delete an endpoint and its deliveries (asks first on a terminal)')
    .addHelpText('before', examples(['tubekit webhooks delete 1', 'tubekit webhooks delete 1 --yes']))
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (id: string, options: { yes?: boolean }) => {
      const endpointId = parseId(id, 'Endpoint id');
      await confirmOrAbort(app.io, `Delete webhook endpoint ${endpointId} and its deliveries?`, options.yes);
      const body = await app.call('webhooks.delete', { id: endpointId });
      app.renderOutcome(body, String(body.id), `Deleted webhook endpoint ${body.id}.`);
    });

  webhooks
    .command('rotate-secret <id>')
    .description('Replace an endpoint\'s signing secret; prints the new one once (the old one stops signing at once)')
    .addHelpText('before', examples(['tubekit webhooks rotate-secret 1']))
    .action(async (id: string) => {
      showSecret(app, await app.call('webhooks.rotateSecret', { id: parseId(id, 'Endpoint id') }), 'New secret for webhook endpoint');
    });

  webhooks
    .command('deliveries')
    .description('Deliveries, newest first, with their attempts: status and duration')
    .addHelpText('before', examples(['tubekit webhooks deliveries', 'tubekit webhooks deliveries --failed --endpoint 1', 'tubekit webhooks deliveries --json | jq \'.deliveries[0].attempts\'']))
    .option('--failed', 'only deliveries that failed (given up, or failing and waiting to be tried again)')
    .option('--endpoint <id>', 'only this endpoint\'s')
    .option('--limit <n>', 'at most this many, 1 to 100 (default 50)')
    .action(async (options: { failed?: boolean; endpoint?: string; limit?: string }) => {
      const body = await app.call('webhooks.deliveries', {
        failed: options.failed ? true : undefined,
        endpoint_id: options.endpoint === undefined ? undefined : parseId(options.endpoint, '--endpoint'),
        limit: options.limit === undefined ? undefined : parseWholeNumber(options.limit, '--limit', { min: 1, max: 100 }),
      });
      await app.render(body, (b) => printTable(app.io, b.deliveries, deliveryColumns));
    });

  webhooks
    .command('redeliver <delivery-id>')
    .description('Send a delivery again, with the same webhook-id (the workers send it next)')
    .addHelpText('before', examples(['tubekit webhooks redeliver 42']))
    .action(async (id: string) => {
      const body = await app.call('webhooks.redeliver', { id: parseId(id, 'Delivery id') });
      app.renderOutcome(body, String(body.delivery.id), `Delivery ${body.delivery.id} (${body.delivery.event_id}) is queued again; a worker (serve or \`tubekit engine worker\`) sends it.`);
    });
}
