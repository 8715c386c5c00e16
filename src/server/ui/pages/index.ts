/** Every dashboard path and the page or form action behind it. */
import type { ActionHandler, PageHandler } from '../page-context.js';
import { alertEditPage, alertsPage, createAlert, createWebhook, deleteAlert, deleteWebhook, redeliverWebhook, setAlertEnabled, updateAlert } from './alerts.js';
import { channelPage } from './channel.js';
import { folderPage } from './folder.js';
import { foldersPage } from './folders.js';
import { jobsPage } from './jobs.js';
import { downloadVideo, mediaPage } from './media.js';
import { terminatedPage } from './terminated.js';

export const dashboardPages: Record<string, PageHandler> = {
  '/folders': foldersPage,
  '/folders/:id': folderPage,
  '/channels/:id': channelPage,
  '/alerts': (context) => alertsPage(context),
  '/alerts/:id': (context) => alertEditPage(context),
  '/jobs': jobsPage,
  '/media': (context) => mediaPage(context),
  '/terminated': terminatedPage,
};

export const dashboardActions: Record<string, ActionHandler> = {
  '/alerts': createAlert,
  '/alerts/:id': updateAlert,
  '/alerts/:id/enabled': setAlertEnabled,
  '/alerts/:id/delete': deleteAlert,
  '/alerts/webhooks': createWebhook,
  '/alerts/webhooks/:id/delete': deleteWebhook,
  '/alerts/webhooks/deliveries/:id/redeliver': redeliverWebhook,
  '/media': downloadVideo,
};
