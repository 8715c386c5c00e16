/**
 * Events (what happened to a user's watched world) and the webhook endpoints they are delivered to:
 * tubekit extensions, documented in the OpenAPI document (components and `webhooks`).
 */
import * as z from 'zod';
import { commaList, flag, integer, jsonBody, oneOf, success } from './params.js';
import { triggeredChannel } from './alerts.js';

export const EVENT_TYPES = ['alert.triggered', 'channel.new_upload', 'channel.terminated'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** A channel published a video (its own upload; a collab it is only listed on is the host's). */
export const newUploadData = z.object({
  channel_id: z.string(),
  handle: z.string().nullable(),
  title: z.string().describe("The channel's title"),
  video_id: z.string(),
  video_title: z.string(),
  kind: z.enum(['longform', 'short', 'live']),
  published_at: z.string(),
});
/** A watched channel was found terminated or deleted. */
export const terminatedData = z.object({
  channel_id: z.string(),
  handle: z.string().nullable(),
  title: z.string().nullable(),
  state: z.enum(['terminated', 'missing']),
  reason: z.string().nullable(),
  found_at: z.string(),
});

const envelope = <T extends EventType, D extends z.ZodType>(type: T, data: D) =>
  z.object({
    /** Stable: the same on every delivery attempt (webhook-id) — deduplicate by it. */
    id: z.string(),
    type: z.literal(type),
    /** When it happened (ISO). */
    timestamp: z.string(),
    /** Its place in the user's feed: `GET /api/events?after=<cursor>` continues after it. */
    cursor: z.string(),
    data,
  });

export const alertTriggeredEvent = envelope('alert.triggered', triggeredChannel);
export const newUploadEvent = envelope('channel.new_upload', newUploadData);
export const terminatedEvent = envelope('channel.terminated', terminatedData);
export const event = z.discriminatedUnion('type', [alertTriggeredEvent, newUploadEvent, terminatedEvent]);
export type TubekitEvent = z.infer<typeof event>;

/** Each event type's schema, for the OpenAPI document. */
export const eventSchemas = {
  'alert.triggered': alertTriggeredEvent,
  'channel.new_upload': newUploadEvent,
  'channel.terminated': terminatedEvent,
} as const satisfies Record<EventType, z.ZodType>;

export const eventsInput = z.object({
  /** A cursor from an earlier answer (or 0, the start); events after it are returned. */
  after: z.string().regex(/^\d{1,15}$/, { error: 'must be a cursor from an earlier answer (digits)' }).default('0'),
  types: commaList({ max: EVENT_TYPES.length }).pipe(z.array(oneOf(EVENT_TYPES))).optional(),
  alert_id: integer({ min: 1 }).optional(),
  limit: integer({ min: 1, max: 100 }).default(100),
  /** Hold the call up to this long until an event arrives (long-poll). */
  wait_seconds: integer({ min: 0, max: 30 }).default(0),
});
export const eventsOutput = z.object({
  success,
  events: z.array(event),
  /** Where the next call continues (the last event's cursor, or `after` when none came). */
  cursor: z.string(),
});

export const webhookEndpoint = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  /** Only alert.triggered events of this alert (null: every alert). */
  alert_id: z.number().int().nullable(),
  enabled: z.boolean(),
  /** Why it is disabled (its deliveries failed for the whole retry schedule, or you disabled it). */
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  pending_deliveries: z.number().int(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpoint>;

const webhookUrl = z.string({ error: 'must be a URL' }).trim().min(1, { error: 'must not be empty' }).max(2000, { error: 'must be at most 2000 characters' });

export const createWebhookInput = jsonBody({
  url: webhookUrl,
  events: commaList({ max: EVENT_TYPES.length }).pipe(z.array(oneOf(EVENT_TYPES)).min(1, { error: `name at least one of ${EVENT_TYPES.join(', ')}` })),
  alert_id: integer({ min: 1 }).optional(),
});
/** The secret is in this answer only (and rotate-secret's): keep it where your receiver reads it. */
export const createdWebhookOutput = z.object({ success, endpoint: webhookEndpoint, secret: z.string() });
export const webhookOutput = z.object({ success, endpoint: webhookEndpoint });
export const listWebhooksOutput = z.object({ success, count: z.number().int(), endpoints: z.array(webhookEndpoint) });
export const webhookIdInput = z.object({ id: integer({ min: 1 }) });
export const updateWebhookInput = jsonBody(
  {
    id: integer({ min: 1 }),
    url: webhookUrl.optional(),
    events: commaList({ max: EVENT_TYPES.length }).pipe(z.array(oneOf(EVENT_TYPES)).min(1)).optional(),
    alert_id: integer({ min: 1 }).nullable().optional(),
    enabled: flag().optional(),
  },
  { pathFields: ['id'] },
).refine((input) => input.url !== undefined || input.events !== undefined || input.alert_id !== undefined || input.enabled !== undefined, {
  error: 'send at least one of url, events, alert_id, enabled',
});
export const deleteWebhookOutput = z.object({ success, id: z.number().int() });
export const rotatedSecretOutput = z.object({ success, endpoint: webhookEndpoint, secret: z.string() });

export const deliveryAttempt = z.object({
  attempt: z.number().int(),
  at: z.string(),
  /** The receiver's HTTP status, or null when no answer came (refused, timed out). */
  status: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
});
export const delivery = z.object({
  id: z.number().int(),
  endpoint_id: z.number().int(),
  event_id: z.string(),
  event_type: z.enum(EVENT_TYPES),
  /** pending (waiting for its next attempt), delivered, or failed (gave up after the schedule). */
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(deliveryAttempt),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
export const deliveriesInput = z.object({
  endpoint_id: integer({ min: 1 }).optional(),
  failed: flag().default(false),
  limit: integer({ min: 1, max: 100 }).default(50),
});
export const deliveriesOutput = z.object({ success, count: z.number().int(), deliveries: z.array(delivery) });
export const deliveryIdInput = z.object({ id: integer({ min: 1 }) });
export const deliveryOutput = z.object({ success, delivery });
