/**
 * The route table's `alerts` part: alerts and what triggered them.
 * routes.ts joins the parts; the engine loads only the part a call needs (route-loader.ts).
 */
import { defineRoute, routePart } from '../route.js';
import { noInput } from '../schemas/params.js';
import * as alerts from '../schemas/alerts.js';

export const alertsRoutes = routePart('alerts', {
  'alerts.list': defineRoute({
    method: 'GET', path: '/api/alerts', encoding: 'none', input: noInput,
    response: alerts.listAlertsOutput, summary: 'Your alerts',
  }),
  'alerts.create': defineRoute({
    method: 'POST', path: '/api/alerts', encoding: 'json', input: alerts.createAlertInput,
    response: alerts.alertOutput, status: 201, summary: 'Create an alert',
  }),
  'alerts.update': defineRoute({
    method: 'PATCH', path: '/api/alerts/:id', encoding: 'json', input: alerts.updateAlertInput,
    response: alerts.alertOutput, summary: 'Change an alert',
  }),
  'alerts.delete': defineRoute({
    method: 'DELETE', path: '/api/alerts/:id', encoding: 'none', input: alerts.alertIdInput,
    response: alerts.deleteAlertOutput, summary: 'Delete an alert and its history',
  }),
  'alerts.triggered': defineRoute({
    method: 'GET', path: '/api/alerts/triggered', encoding: 'query', input: alerts.triggeredInput,
    response: alerts.triggeredOutput, summary: 'Channels that triggered your alerts',
  }),
  'alerts.status': defineRoute({
    method: 'GET', path: '/api/alerts/outlier-status', encoding: 'none', input: noInput,
    response: alerts.outlierStatusOutput, summary: 'New-channel counts per alert',
  }),
});
