/**
 * How this process sends webhooks: chosen when the engine opens (serve's flag, the environment,
 * or a test's options), never stored, since the operator of each process decides for it.
 */
import { DEFAULT_RETRY_SCHEDULE, RETRY_SCHEDULE_VARIABLE, parseRetrySchedule } from './retry-schedule.js';
import { systemLookup, type Lookup } from './target-address.js';

export const ALLOW_LOOPBACK_VARIABLE = 'TUBEKIT_ALLOW_LOOPBACK_WEBHOOKS';

export interface WebhookSettings {
  /** http:// to loopback receivers is allowed (serve --allow-loopback-webhooks, or the variable set to 1). */
  allowLoopback: boolean;
  /** The waits between attempts (retry-schedule.ts). */
  retrySchedule: number[];
  /** One attempt's limit. */
  timeoutMs: number;
  /** The most of a receiver's answer that is read. */
  maxResponseBytes: number;
  /** Deliveries one user has in flight at most, across every endpoint. */
  maxInFlightPerUser: number;
  /** Resolves receivers' host names (tests give their own). */
  lookup: Lookup;
}

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;
export const MAX_IN_FLIGHT_PER_USER = 4;

export function webhookSettings(env: NodeJS.ProcessEnv, given: Partial<WebhookSettings> = {}): WebhookSettings {
  return {
    allowLoopback: given.allowLoopback ?? env[ALLOW_LOOPBACK_VARIABLE] === '1',
    retrySchedule: given.retrySchedule ?? parseRetrySchedule(env[RETRY_SCHEDULE_VARIABLE] || DEFAULT_RETRY_SCHEDULE),
    timeoutMs: given.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    maxResponseBytes: given.maxResponseBytes ?? MAX_RESPONSE_BYTES,
    maxInFlightPerUser: given.maxInFlightPerUser ?? MAX_IN_FLIGHT_PER_USER,
    lookup: given.lookup ?? systemLookup,
  };
}
