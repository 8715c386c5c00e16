import type { Handlers } from '../../context.js';
import { createAlert, deleteAlert, listAlerts, updateAlert } from './alerts.js';
import { outlierStatus, triggeredChannels } from './triggered.js';

export const alertHandlers: Handlers = {
  async 'alerts.list'(request) {
    const alerts = await listAlerts(request);
    return { success: true, count: alerts.length, alerts };
  },
  async 'alerts.create'(request, input) {
    return { success: true, alert: await createAlert(request, input) };
  },
  async 'alerts.update'(request, input) {
    return { success: true, alert: await updateAlert(request, input) };
  },
  async 'alerts.delete'(request, input) {
    return { success: true, ...(await deleteAlert(request, input.id)) };
  },
  async 'alerts.triggered'(request, input) {
    const { total, channels } = await triggeredChannels(request, input);
    return { success: true, page: input.page, per_page: input.per_page, total, channels };
  },
  async 'alerts.status'(request) {
    return { success: true, ...(await outlierStatus(request)) };
  },
};
