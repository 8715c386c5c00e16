/** A channel's figures over time: one point per UTC day, a day the index cannot tell is null (a gap). */
import * as z from 'zod';
import { channelId, integer, success } from './params.js';

/** The longest history one call returns (a year of days). */
export const HISTORY_DAYS_MAX = 365;

export const channelHistoryInput = z.object({
  channel_id: channelId,
  days: integer({ min: 1, max: HISTORY_DAYS_MAX }).default(30),
});

export const historyPoint = z.object({
  /** 'YYYY-MM-DD'; figures are as of the end of that day (or of the latest read, on its day). */
  date: z.string(),
  subscribers: z.number().int().nullable(),
  views: z.number().int().nullable(),
  /** Derived from the videos the index lists; null where that list does not reach back to the day. */
  videos: z.number().int().nullable(),
});
export type HistoryPoint = z.infer<typeof historyPoint>;

export const channelHistoryOutput = z.object({
  success,
  channel_id: z.string(),
  handle: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  days: z.number().int(),
  /** Ours, on the live platform: since when the engine has watched the channel (no history before). */
  watched_since: z.string().nullable().optional(),
  /** Ours, on the live platform: the read its figures are as of. */
  figures_as_of: z.string().nullable().optional(),
  points: z.array(historyPoint),
});
export type ChannelHistory = z.infer<typeof channelHistoryOutput>;

export const HISTORY_METRICS = ['subscribers', 'views', 'videos'] as const;
export type HistoryMetric = (typeof HISTORY_METRICS)[number];
