import type { Handlers } from '../../context.js';
import { createAlert, deleteAlert, listAlerts, updateAlert } from './alerts.js';
import { outlierStatus, triggeredChannels } from './triggered.js';

export const alertHandlers: Handlers = {
  'alerts.list'(request) {
    const alerts = listAlerts(request);
    return { success: true, count: alerts.length, alerts };
  },
  async 'alerts.create'(request, input) {
    return { success: true, alert: await createAlert(request, input) };
  },
  async 'alerts.update'(request, input) {
    return { success: true, alert: await updateAlert(request, input) };
  },
  'alerts.delete'(request, input) {
    return { success: true, ...deleteAlert(request, input.id) };
  },
  'alerts.triggered'(request, input) {
    const { total, channels } = triggeredChannels(request, input);
    return { success: true, page: input.page, per_page: input.per_page, total, channels };
  },
  async 'alerts.status'(request) {
    return { success: true, ...(await outlierStatus(request)) };
  },
};
