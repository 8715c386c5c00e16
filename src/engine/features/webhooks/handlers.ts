import type { Handlers } from '../../context.js';
import { listEvents } from '../events/feed.js';
import { listDeliveries, redeliver } from './deliveries.js';
import { createEndpoint, deleteEndpoint, listEndpoints, rotateSecret, updateEndpoint } from './endpoints.js';

export const webhookHandlers: Handlers = {
  async 'events.list'(request, input) {
    return { success: true, ...(await listEvents(request, input)) };
  },
  async 'webhooks.list'(request) {
    const endpoints = await listEndpoints(request);
    return { success: true, count: endpoints.length, endpoints };
  },
  async 'webhooks.create'(request, input) {
    return { success: true, ...(await createEndpoint(request, input)) };
  },
  async 'webhooks.update'(request, input) {
    return { success: true, endpoint: await updateEndpoint(request, input) };
  },
  async 'webhooks.delete'(request, input) {
    return { success: true, ...(await deleteEndpoint(request, input.id)) };
  },
  async 'webhooks.rotateSecret'(request, input) {
    return { success: true, ...(await rotateSecret(request, input.id)) };
  },
  async 'webhooks.deliveries'(request, input) {
    const deliveries = await listDeliveries(request, input);
    return { success: true, count: deliveries.length, deliveries };
  },
  async 'webhooks.redeliver'(request, input) {
    return { success: true, delivery: await redeliver(request, input.id) };
  },
};
