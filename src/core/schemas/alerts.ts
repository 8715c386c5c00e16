/** Alerts: saved search filters evaluated on a cycle, and the channels that triggered them. */
import * as z from 'zod';
import { commaList, integer, jsonBody, success, oneOf, flag } from './params.js';
import { nameText } from './name-text.js';

/**
 * What makes a channel trigger an alert (the README defines each precisely):
 * `outlier` — a recent video far above the channel's usual views; `new_channel` — a channel that
 * appeared in the last 7 days; `breakout` — a day of views far above the channel's average.
 */
export const ALERT_TYPES = ['outlier', 'new_channel', 'breakout'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];
export const CONTENT_TYPES = ['longform', 'shorts'] as const;

const FILTER_NAMES = [
  'min_subs', 'max_subs', 'min_views', 'max_views', 'min_avg_views', 'max_avg_views',
  'min_age', 'max_age', 'min_uploads', 'max_uploads', 'languages', 'categories', 'keywords',
];

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
    languages: commaList({ max: 50 }).optional(),
    categories: commaList({ max: 50 }).optional(),
    keywords: commaList({ max: 50 }).optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown filter ${issue.keys.join(', ')}; filters are ${FILTER_NAMES.join(', ')}`
        : 'must be an object of search filters',
  },
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
  /** Wall-clock time of its latest evaluation, and the world time it evaluated. */
  last_evaluated_at: z.string().nullable(),
  last_world_time: z.string().nullable(),
  /** Channels that were new in its latest evaluation. */
  new_channels: z.number().int(),
});
export type Alert = z.infer<typeof alert>;

export const listAlertsOutput = z.object({ success, count: z.number().int(), alerts: z.array(alert) });
/**
 * Clients of the hosted service name the alert type `type`; it is taken for `alert_type`. Any
 * other field the body does not take is refused (jsonBody), so a misnamed type never silently
 * makes an outlier alert.
 */
export const createAlertInput = jsonBody({
  name: nameText({ max: 100 }),
  content_type: oneOf(CONTENT_TYPES).default('longform'),
  alert_type: oneOf(ALERT_TYPES).optional(),
  type: oneOf(ALERT_TYPES).optional(),
  filters: alertFilters.default({}),
})
  .refine((input) => input.type === undefined || input.alert_type === undefined || input.type === input.alert_type, {
    error: 'type is another name for alert_type, and the two differ: send one of them',
    path: ['type'],
  })
  .transform(({ type, alert_type, ...input }) => ({ ...input, alert_type: alert_type ?? type ?? 'outlier' }));
export const alertOutput = z.object({ success, alert });
export const updateAlertInput = jsonBody(
  {
    id: integer({ min: 1 }),
    name: nameText({ max: 100 }).optional(),
    filters: alertFilters.optional(),
    enabled: flag().optional(),
  },
  { pathFields: ['id'] },
).refine((input) => input.name !== undefined || input.filters !== undefined || input.enabled !== undefined, {
  error: 'send at least one of name, filters, enabled',
});
export const alertIdInput = z.object({ id: integer({ min: 1 }) });
export const deleteAlertOutput = z.object({ success, id: z.number().int(), removed_triggers: z.number().int() });

export const triggeredInput = z.object({
  alert_id: integer({ min: 1 }).optional(),
  page: integer({ min: 1, max: 20 }).default(1),
  per_page: integer({ min: 1, max: 50 }).default(50),
  /**
   * Ours, beyond the spec: every channel the alerts ever recorded, newest cycle first. Without it
   * the feed is what the spec says: the channels of each alert's last evaluation cycle.
   */
  history: flag().default(false),
});
export const triggeredChannel = z.looseObject({
  channel_id: z.string(),
  handle: z.string().nullable(),
  title: z.string(),
  alert_type: z.string(),
  /** Why it triggered, in words, and the figures that made it. */
  reason: z.string(),
  figures: z.record(z.string(), z.unknown()),
  /** Wall-clock time it (last) triggered one of the listed alerts, and the world time then. */
  triggered_at: z.string(),
  world_time: z.string(),
  /** New in the latest evaluation of one of the listed alerts. */
  new: z.boolean(),
  alerts: z.array(z.object({ alert_id: z.number().int(), name: z.string() })),
});
export type TriggeredChannel = z.infer<typeof triggeredChannel>;
export const triggeredOutput = z.object({
  success,
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  channels: z.array(triggeredChannel),
});
export const outlierStatusOutput = z.object({
  success,
  /** The world's current time: alerts evaluated at an earlier one are due for the next cycle. */
  world_time: z.string(),
  new_channels: z.number().int(),
  alerts: z.array(
    z.looseObject({
      alert_id: z.number().int(),
      name: z.string(),
      alert_type: z.string(),
      enabled: z.boolean(),
      new_channels: z.number().int(),
      last_evaluated_at: z.string().nullable(),
      last_world_time: z.string().nullable(),
    }),
  ),
});
