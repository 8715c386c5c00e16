/**
 * The alerts page's webhooks: the user's endpoints (disabled ones say why), a form adding one whose
 * secret is shown once, and the latest deliveries with their attempts, failed ones resendable.
 */
import type { ServiceError } from '../../../core/errors.js';
import { EVENT_TYPES } from '../../../core/schemas/events.js';
import type { RouteOutput } from '../../../core/routes.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, type PageContext } from '../page-context.js';

const DELIVERIES_SHOWN = 20;

/** What the last webhook form did: the secret of an endpoint just made, or the refusal of one. */
export interface WebhookOutcome {
  values: Record<string, unknown>;
  created?: RouteOutput<'webhooks.create'>;
  error?: ServiceError;
}

export const WEBHOOK_TWINS = 'GET /api/webhooks · GET /api/webhooks/deliveries';

export async function webhooksSection(context: PageContext, outcome?: WebhookOutcome): Promise<SafeHtml> {
  const [{ endpoints }, { deliveries }] = await Promise.all([context.call('webhooks.list', {}), context.call('webhooks.deliveries', { limit: DELIVERIES_SHOWN })]);
  return html`<h2 id="webhooks">Webhooks</h2>
${outcome?.created ? createdNotice(outcome.created) : ''}
${endpoints.length === 0 ? html`<p class="notice">No webhook endpoints yet: events reach you only through <code>tubekit alerts watch</code>.</p>` : endpointTable(context, endpoints)}
${webhookForm(context, outcome)}
<h3>Latest deliveries</h3>${deliveries.length === 0 ? html`<p class="notice">Nothing delivered yet.</p>` : deliveryTable(context, deliveries)}`;
}

function createdNotice(created: RouteOutput<'webhooks.create'>): SafeHtml {
  return html`<div class="download-result" role="status"><p>Endpoint ${created.endpoint.id} added. Its signing secret, shown this once:</p><p><code class="secret">${created.secret}</code></p><p>Keep it where your receiver verifies signatures; <code>tubekit webhooks rotate-secret ${created.endpoint.id}</code> makes a new one.</p></div>`;
}

type Endpoint = RouteOutput<'webhooks.list'>['endpoints'][number];
type Delivery = RouteOutput<'webhooks.deliveries'>['deliveries'][number];

function endpointTable(context: PageContext, endpoints: readonly Endpoint[]): SafeHtml {
  return html`<div class="table-wrap"><table><caption class="skip">Your webhook endpoints</caption><thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">State</th><th scope="col" class="num">Waiting</th><th scope="col">Delete</th></tr></thead><tbody>
${endpoints.map((endpoint) => html`<tr><td class="title">${endpoint.url}</td><td>${endpoint.events.join(', ')}${endpoint.alert_id === null ? '' : ` (alert ${endpoint.alert_id})`}</td><td>${endpoint.enabled ? 'Enabled' : `Disabled: ${endpoint.disabled_reason ?? 'by you'}`}</td><td class="num">${endpoint.pending_deliveries}</td>
<td><form method="post" action="/alerts/webhooks/${endpoint.id}/delete" class="inline" data-confirm="Delete this webhook endpoint?">${csrfField(context)}<button type="submit" aria-label="Delete the webhook to ${endpoint.url}">Delete</button></form></td></tr>`)}
</tbody></table></div>`;
}

function webhookForm(context: PageContext, outcome?: WebhookOutcome): SafeHtml {
  const values = outcome?.values ?? {};
  const chosen = new Set(eventsOf(values.events));
  return html`<form method="post" action="/alerts/webhooks" class="stack" aria-label="New webhook">${csrfField(context)}
${outcome?.error ? html`<p class="error" role="alert">${outcome.error.message}${outcome.error.hint ? ` ${outcome.error.hint}` : ''}</p>` : ''}
<label for="webhook-url">Receiver URL (https)<input id="webhook-url" name="url" type="url" required maxlength="2000" value="${typeof values.url === 'string' ? values.url : ''}"></label>
<fieldset><legend>Events</legend>${EVENT_TYPES.map((type) => html`<label class="check" for="webhook-event-${type}"><input type="checkbox" id="webhook-event-${type}" name="events" value="${type}"${chosen.has(type) || (chosen.size === 0 && type === 'alert.triggered') ? html` checked` : ''}>${type}</label>`)}</fieldset>
<button type="submit" class="primary">Add webhook</button></form>`;
}

function deliveryTable(context: PageContext, deliveries: readonly Delivery[]): SafeHtml {
  return html`<div class="table-wrap"><table><caption class="skip">Latest webhook deliveries</caption><thead><tr><th scope="col">Event</th><th scope="col">Endpoint</th><th scope="col">State</th><th scope="col" class="num">Attempts</th><th scope="col">Last answer</th><th scope="col">Resend</th></tr></thead><tbody>
${deliveries.map((delivery) => {
  const last = delivery.attempts.at(-1);
  const answer = last === undefined ? 'not tried yet' : `${last.status ?? last.error ?? 'no answer'} in ${last.duration_ms} ms`;
  return html`<tr><td>${delivery.event_type} <code>${delivery.event_id}</code></td><td class="num">${delivery.endpoint_id}</td><td>${delivery.state}</td><td class="num">${delivery.attempts.length}</td><td>${answer}</td>
<td>${delivery.state === 'failed' ? html`<form method="post" action="/alerts/webhooks/deliveries/${delivery.id}/redeliver" class="inline">${csrfField(context)}<button type="submit" aria-label="Resend delivery ${delivery.id}">Resend</button></form>` : ''}</td></tr>`;
})}
</tbody></table></div>`;
}

/** A form's `events`: one checkbox gives a string, several an array. */
export function eventsOf(value: unknown): string[] {
  return [value].flat().filter((item): item is string => typeof item === 'string' && item !== '');
}
