/** Alerts: saved search filters evaluated on a cycle, and the channels that triggered them. */
import { z } from 'zod';
import { integer, success, text, oneOf, flag } from './params.js';

export const ALERT_TYPES = ['outlier', 'new_channel'] as const;
export const CONTENT_TYPES = ['longform', 'shorts'] as const;

/** Filters mirror the search parameters; unknown names are refused so typos do not pass silently. */
export const alertFilters = z.strictObject(
  {
    min_subs: integer({ min: 0 }).optional(),
    max_subs: integer({ min: 0 }).optional(),
    min_views: integer({ min: 0 }).optional(),
    max_views: integer({ min: 0 }).optional(),
    min_avg_views: integer({ min: 0 }).optional(),
    max_avg_views: integer({ min: 0 }).optional(),
    min_age: integer({ min: 0 }).optional(),
    max_age: integer({ min: 0 }).optional(),
    min_uploads: integer({ min: 0 }).optional(),
    max_uploads: integer({ min: 0 }).optional(),
    languages: z.array(z.string().min(1)).optional(),
    categories: z.array(z.string().min(1)).optional(),
    keywords: z.array(z.string().min(1)).optional(),
  },
  { error: 'must be an object of search filters' },
);
export type AlertFilters = z.infer<typeof alertFilters>;

export const alert = z.object({
  id: z.number().int(),
  name: z.string(),
  alert_type: z.string(),
  content_type: z.string(),
  filters: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  last_evaluated_at: z.string().nullable(),
});
export type Alert = z.infer<typeof alert>;

export const listAlertsOutput = z.object({ success, count: z.number().int(), alerts: z.array(alert) });
export const createAlertInput = z.object({
  name: text({ max: 100 }),
  content_type: oneOf(CONTENT_TYPES).default('longform'),
  alert_type: oneOf(ALERT_TYPES).default('outlier'),
  filters: alertFilters.default({}),
});
export const alertOutput = z.object({ success, alert });
export const updateAlertInput = z.object({
  id: integer({ min: 1 }),
  name: text({ max: 100 }).optional(),
  filters: alertFilters.optional(),
  enabled: flag().optional(),
});
export const alertIdInput = z.object({ id: integer({ min: 1 }) });
export const deleteAlertOutput = z.object({ success });

export const triggeredInput = z.object({
  alert_id: integer({ min: 1 }).optional(),
  page: integer({ min: 1, max: 20 }).default(1),
  per_page: integer({ min: 1, max: 50 }).default(50),
});
export const triggeredChannel = z.looseObject({
  alert_id: z.number().int(),
  channel_id: z.string(),
  title: z.string(),
  triggered_at: z.string(),
});
export const triggeredOutput = z.object({
  success,
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  channels: z.array(triggeredChannel),
});
export const outlierStatusOutput = z.object({
  success,
  alerts: z.array(
    z.looseObject({
      alert_id: z.number().int(),
      name: z.string(),
      enabled: z.boolean(),
      new_channels: z.number().int(),
      last_evaluated_at: z.string().nullable(),
    }),
  ),
});
