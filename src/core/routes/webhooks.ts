/**
 * The route table's `webhooks` part (tubekit extensions): the events feed and the webhook
 * endpoints events are delivered to, with their deliveries.
 */
import { defineRoute, routePart } from '../route.js';
import { noInput } from '../schemas/params.js';
import * as events from '../schemas/events.js';

export const webhooksRoutes = routePart('webhooks', {
  'events.list': defineRoute({
    method: 'GET', path: '/api/events', encoding: 'query', input: events.eventsInput,
    response: events.eventsOutput, summary: 'Your events after a cursor (long-poll with wait_seconds)', longPoll: true, extension: true,
  }),
  'webhooks.list': defineRoute({
    method: 'GET', path: '/api/webhooks', encoding: 'none', input: noInput,
    response: events.listWebhooksOutput, summary: 'Your webhook endpoints', extension: true,
  }),
  'webhooks.create': defineRoute({
    method: 'POST', path: '/api/webhooks', encoding: 'json', input: events.createWebhookInput,
    response: events.createdWebhookOutput, status: 201, summary: 'Add a webhook endpoint (its secret is shown once)', extension: true,
  }),
  'webhooks.update': defineRoute({
    method: 'PATCH', path: '/api/webhooks/:id', encoding: 'json', input: events.updateWebhookInput,
    response: events.webhookOutput, summary: 'Change a webhook endpoint', extension: true,
  }),
  'webhooks.delete': defineRoute({
    method: 'DELETE', path: '/api/webhooks/:id', encoding: 'none', input: events.webhookIdInput,
    response: events.deleteWebhookOutput, summary: 'Delete a webhook endpoint and its deliveries', extension: true,
  }),
  'webhooks.rotateSecret': defineRoute({
    method: 'POST', path: '/api/webhooks/:id/rotate-secret', encoding: 'none', input: events.webhookIdInput,
    response: events.rotatedSecretOutput, summary: 'Replace an endpoint\'s signing secret (shown once)', extension: true,
  }),
  'webhooks.deliveries': defineRoute({
    method: 'GET', path: '/api/webhooks/deliveries', encoding: 'query', input: events.deliveriesInput,
    response: events.deliveriesOutput, summary: 'Deliveries with their attempts, newest first', extension: true,
  }),
  'webhooks.redeliver': defineRoute({
    method: 'POST', path: '/api/webhooks/deliveries/:id/redeliver', encoding: 'none', input: events.deliveryIdInput,
    response: events.deliveryOutput, summary: 'Send a delivery again (same webhook-id)', extension: true,
  }),
});
