/** `/alerts`: the user's alerts with enable switches, a form for a new one, the triggered feed, and webhooks. */
import { ServiceError } from '../../../core/errors.js';
import type { Alert } from '../../../core/schemas/alerts.js';
import { html, type SafeHtml } from '../html.js';
import type { PageView } from '../layout.js';
import { csrfField, type ActionHandler, type PageContext } from '../page-context.js';
import { href, pager, readPage } from '../table.js';
import { alertForm, alertValues, formFilters } from './alert-form.js';
import { eventsOf, WEBHOOK_TWINS, webhooksSection, type WebhookOutcome } from './webhooks.js';

const FEED_PAGE_SIZE = 20;
/** The triggered feed's pages (the route's own bound). */
const FEED_MAX_PAGE = 20;

export async function alertsPage(context: PageContext, formError?: { values: Record<string, unknown>; message: string; status: number }, webhook?: WebhookOutcome): Promise<PageView> {
  const { alerts } = await context.call('alerts.list', {});
  const page = Math.min(readPage(context.query), FEED_MAX_PAGE);
  const feed = await context.call('alerts.triggered', { page, per_page: FEED_PAGE_SIZE });
  const pages = Math.min(FEED_MAX_PAGE, Math.max(1, Math.ceil(feed.total / FEED_PAGE_SIZE)));
  const webhooks = await webhooksSection(context, webhook);
  return {
    title: 'Alerts',
    twin: `GET /api/alerts · GET /api/alerts/triggered · ${WEBHOOK_TWINS}`,
    status: formError?.status ?? webhook?.error?.status,
    body: html`${alerts.length === 0 ? html`<p class="notice">No alerts yet.</p>` : alertTable(context, alerts)}
<h2 id="new-alert">New alert</h2>${alertForm(context, '/alerts', formError?.values ?? { alert_type: 'outlier', content_type: 'longform' }, false, formError?.message)}
<h2>Triggered</h2>${feed.channels.length === 0 ? html`<p class="notice">No channel has triggered an alert in its latest cycle.</p>` : html`<div class="table-wrap"><table><thead><tr><th scope="col">Channel</th><th scope="col">Alert</th><th scope="col">Why</th><th scope="col">Triggered</th></tr></thead><tbody>
${feed.channels.map((channel) => html`<tr><td class="title"><a href="/channels/${channel.channel_id}">${channel.title}</a>${channel.new ? html` <strong>new</strong>` : ''}</td><td>${channel.alerts.map((alert) => alert.name).join(', ')} (${channel.alert_type})</td><td>${channel.reason}</td><td>${channel.triggered_at}</td></tr>`)}
</tbody></table></div>${pager(page, pages, (p) => href('/alerts', { page: p }))}`}
${webhooks}`,
  };
}

function alertTable(context: PageContext, alerts: readonly Alert[]): SafeHtml {
  return html`<div class="table-wrap"><table><caption class="skip">Your alerts</caption><thead><tr><th scope="col">Alert</th><th scope="col">Type</th><th scope="col">Content</th><th scope="col" class="num">New channels</th><th scope="col">Last evaluated</th><th scope="col">Enabled</th><th scope="col">Delete</th></tr></thead><tbody>
${alerts.map((alert) => html`<tr><td class="title"><a href="/alerts/${alert.id}">${alert.name}</a></td><td>${alert.alert_type}</td><td>${alert.content_type}</td><td class="num">${alert.new_channels}</td><td>${alert.last_evaluated_at ?? 'not yet'}</td>
<td>${alert.enabled ? 'On' : 'Off'} <form method="post" action="/alerts/${alert.id}/enabled" class="inline">${csrfField(context)}<input type="hidden" name="enabled" value="${alert.enabled ? 'false' : 'true'}"><button type="submit" aria-label="${alert.enabled ? 'Disable' : 'Enable'} ${alert.name}">${alert.enabled ? 'Disable' : 'Enable'}</button></form></td>
<td><form method="post" action="/alerts/${alert.id}/delete" class="inline" data-confirm="Delete this alert?">${csrfField(context)}<button type="submit" aria-label="Delete ${alert.name}">Delete</button></form></td></tr>`)}
</tbody></table></div>`;
}

/** `/alerts/<id>`: the edit form of one of the user's alerts; another user's is not found, as in the API. */
export async function alertEditPage(context: PageContext, formError?: { values: Record<string, unknown>; message: string; status: number }): Promise<PageView> {
  const alert = await ownAlert(context);
  return {
    title: `Edit alert: ${alert.name}`,
    twin: `PATCH /api/alerts/${alert.id}`,
    status: formError?.status,
    // A refused post shows what was typed; the fields that cannot change show the alert's own values.
    body: alertForm(context, `/alerts/${alert.id}`, { ...alertValues(alert), ...formError?.values }, true, formError?.message),
  };
}

async function ownAlert(context: PageContext): Promise<Alert> {
  const { alerts } = await context.call('alerts.list', {});
  const alert = alerts.find((entry) => String(entry.id) === context.params.id);
  if (!alert) throw new ServiceError({ status: 404, code: 'not_found', message: `Alert ${context.params.id} not found. Your alerts are listed at /alerts.` });
  return alert;
}

/** A refusal the form can show beside its fields (bad input, a cap, a name taken); others are pages of their own. */
const formRefusal = (error: unknown): error is ServiceError => error instanceof ServiceError && [400, 403, 409].includes(error.status);

export const createAlert: ActionHandler = async (context) => {
  const { form } = context;
  try {
    await context.call('alerts.create', { name: form.name, alert_type: form.alert_type, content_type: form.content_type, filters: formFilters(form) });
    return { redirect: '/alerts' };
  } catch (error) {
    if (!formRefusal(error)) throw error;
    return alertsPage(context, { values: form, message: error.message, status: error.status });
  }
};

export const updateAlert: ActionHandler = async (context) => {
  const { form } = context;
  try {
    await context.call('alerts.update', { id: context.params.id, name: form.name, filters: formFilters(form), enabled: form.enabled === 'on' });
    return { redirect: '/alerts' };
  } catch (error) {
    if (!formRefusal(error)) throw error;
    return alertEditPage(context, { values: form, message: error.message, status: error.status });
  }
};

export const setAlertEnabled: ActionHandler = async (context) => {
  await context.call('alerts.update', { id: context.params.id, enabled: context.form.enabled === 'true' });
  return { redirect: '/alerts' };
};

export const deleteAlert: ActionHandler = async (context) => {
  await context.call('alerts.delete', { id: context.params.id });
  return { redirect: '/alerts' };
};

export const createWebhook: ActionHandler = async (context) => {
  const values = { url: context.form.url, events: eventsOf(context.form.events) };
  try {
    const created = await context.call('webhooks.create', { url: typeof values.url === 'string' ? values.url : '', events: values.events.join(',') });
    return alertsPage(context, undefined, { values: {}, created });
  } catch (error) {
    if (!formRefusal(error)) throw error;
    return alertsPage(context, undefined, { values, error });
  }
};

export const deleteWebhook: ActionHandler = async (context) => {
  await context.call('webhooks.delete', { id: context.params.id });
  return { redirect: '/alerts#webhooks' };
};

export const redeliverWebhook: ActionHandler = async (context) => {
  await context.call('webhooks.redeliver', { id: context.params.id });
  return { redirect: '/alerts#webhooks' };
};
