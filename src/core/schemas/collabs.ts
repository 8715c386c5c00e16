/** Collab data: channels that appear together on videos. */
import * as z from 'zod';
import { channelId, commaList, integer, oneOf, success } from './params.js';

export const collabsTopInput = z.object({
  metric: oneOf(['subs', 'views']).default('subs'),
  period: z.preprocess(
    (value) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value),
    z.union([z.literal(7), z.literal(30)], { error: 'must be 7 or 30' }),
  ).default(7),
  sort: oneOf(['gain', 'pct']).default('gain'),
  min_subscribers: integer({ min: 0 }).optional(),
  max_subscribers: integer({ min: 0 }).optional(),
  min_partners: integer({ min: 1 }).default(1),
  active_days: integer({ min: 1 }).optional(),
  language: z.string().trim().min(1).optional(),
  page: integer({ min: 1, max: 50 }).default(1),
  per_page: integer({ min: 1, max: 100 }).default(25),
});
const collabRow = z.looseObject({
  rank: z.number().int(),
  channel_id: z.string(),
  handle: z.string().nullable(),
  title: z.string(),
  language: z.string().nullable(),
  /** Null for a live channel that hides its subscriber count. */
  subscribers: z.number().int().nullable(),
  growth: z.number().int(),
  growth_pct: z.number().nullable(),
  partners: z.number().int(),
  collab_videos: z.number().int(),
  latest_collab_at: z.string().nullable(),
});
export const collabsTopOutput = z.object({
  success,
  /** The 6-hour boundary of world time the growth figures were computed for. */
  computed_at: z.string(),
  /** The last complete day (YYYY-MM-DD) the growth runs through. */
  growth_through: z.string(),
  metric: z.string(),
  period: z.number().int(),
  sort: z.string(),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  channels: z.array(collabRow),
});

export const collabsChannelInput = z.object({
  channel_id: channelId,
  since_days: integer({ min: 1, max: 365 }).default(7),
  limit: integer({ min: 1, max: 100 }).default(30),
});
const collabChannel = z.object({ channel_id: z.string(), handle: z.string().nullable(), title: z.string() });
const collabVideo = z.looseObject({
  video_id: z.string(),
  title: z.string(),
  kind: z.string(),
  published_at: z.string(),
  /** null: no read of the live site gave the video's count. */
  views: z.number().int().nullable(),
  upcoming: z.boolean(),
  url: z.string(),
  /** The channel it was uploaded to. */
  host: collabChannel,
  collaborators: z.array(collabChannel),
});
export type CollabVideo = z.infer<typeof collabVideo>;
/** A video in one channel's view: also whether it is new (published within `since_days`). */
const channelCollabVideo = collabVideo.extend({ is_new: z.boolean() });
export const collabsChannelOutput = z.object({
  success,
  channel_id: z.string(),
  handle: z.string().nullable(),
  title: z.string().nullable(),
  /** False when the channel was not scanned and no scanned channel lists it: the service knows nothing of it. */
  checked: z.boolean(),
  scanned: z.boolean(),
  has_new_collab: z.boolean(),
  upcoming_collabs: z.number().int(),
  /** Each figure is null where a live channel's snapshots do not cover the period (it has not been watched that long). */
  growth: z
    .looseObject({
      subs_7d: z.number().int().nullable(),
      subs_30d: z.number().int().nullable(),
      views_7d: z.number().int().nullable(),
      views_30d: z.number().int().nullable(),
      computed_at: z.string(),
      growth_through: z.string(),
    })
    .nullable(),
  total_partners: z.number().int(),
  total_videos: z.number().int(),
  /** Ours, on the live platform: since when the engine has watched the channel's figures (null: never read). */
  watched_since: z.string().nullable().optional(),
  partners: z.array(collabChannel.extend({ joint_videos: z.number().int(), last_joint_at: z.string() })),
  videos: z.array(channelCollabVideo),
});

export const collabsFeedInput = z.object({
  days: integer({ min: 1, max: 90 }).default(7),
  sort: oneOf(['newest', 'views']).default('newest'),
  channel_ids: commaList({ max: 50 }).optional(),
  page: integer({ min: 1, max: 50 }).default(1),
  per_page: integer({ min: 1, max: 100 }).default(25),
});
export const collabsFeedOutput = z.object({
  success,
  days: z.number().int(),
  sort: z.string(),
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  videos: z.array(collabVideo),
});
